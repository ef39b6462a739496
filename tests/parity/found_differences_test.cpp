// What the parity harness found cuvet reading otherwise than podman, each as a fixed image
// and the view podman showed for it (docs/parity.md). The same cases run against podman
// itself in tests/image/podman_overlay_differential_test.cpp (layer_edge_cases.hpp).
#include "image/image_fixtures.hpp"
#include "parity/hostile_case_generator.hpp"

using namespace cuvet::test;

TEST_CASE("parity: a directory a layer writes below without an entry is that layer's, 0755",
          "[image][parity]") {
    TempDir tmp;
    auto image = write_docker(
        tmp, layered_spec({{dir("opt/", 0700), dir("opt/data/", 0750), file("opt/data/a", "a")},
                           {file("opt/data/b", "b")},
                           {dir("srv/", 0711), whiteout("srv/none")},
                           {opaque("opt/data"), file("opt/data/c", "c")},
                           {whiteout("etc/x")}}));
    auto listing = list_files(image);
    INFO(listing.result.err);
    REQUIRE(listing.result.exit_code == 0);
    // overlay shows the highest layer's directory: the extractor's MkdirAll made it 0755.
    CHECK(listing.at("/opt").mode == "0755");
    CHECK(listing.at("/opt/data").mode == "0755");
    CHECK(listing.at("/srv").mode == "0711");  // the layer's own entry
    CHECK(listing.has("/etc"));                // a whiteout needs its directory too
    CHECK(listing.has("/opt/data/c"));
    CHECK_FALSE(listing.has("/opt/data/a"));
}

TEST_CASE("parity: a hard link to a directory is refused, as link(2) refuses it",
          "[image][parity]") {
    TempDir tmp;
    auto image = write_docker(
        tmp, layered_spec({{dir("opt/")}, {dir("opt/dir/"), hard_link("opt/hard", "opt/dir")}}));
    require_bad_input(list_files(image).result, "names the directory /opt/dir");
}

TEST_CASE("parity: a write through the layer's own symlink to nothing is refused",
          "[image][parity]") {
    TempDir tmp;
    auto image = write_docker(
        tmp, layered_spec({{soft_link("lib64", "/usr/lib"), file("lib64/y.so", "y")}}));
    require_bad_input(list_files(image).result, "which leads to no directory");
}

TEST_CASE("parity: a Docker 25 archive whose index.json names another image is refused",
          "[image][parity]") {
    TempDir tmp;
    // The harness's stale OCI index: manifest.json names a rewritten config, index.json's OCI
    // manifest still the config first written. podman runs one, docker load the other.
    parity::HostileImage image = parity::generator_detail::base_image();
    image.stale_oci_index = true;
    auto archive = parity::write_hostile_archive(image, tmp / "image.tar", "localhost/p:1");
    auto listing = list_files(archive);
    require_bad_input(listing.result, "index.json names config sha256:");
    CHECK(listing.result.err.find("manifest.json config sha256:") != std::string::npos);
    // Compared before manifest.json's config is parsed: podman never reads that config, so
    // its error must not be the one given (case 14 of seed 44).
    image.run_config.push_back({"Env", R"("not an array")"});
    auto broken = parity::write_hostile_archive(image, tmp / "broken.tar", "localhost/p:3");
    require_bad_input(list_files(broken).result, "index.json names config sha256:");
    image.run_config.pop_back();
    // The same image with views that agree reads as before.
    image.stale_oci_index = false;
    auto legacy = parity::write_hostile_archive(image, tmp / "legacy.tar", "localhost/p:2");
    CHECK(list_files(legacy).result.exit_code == 0);
    CHECK(list_files(write_docker(tmp, two_layer_spec())).result.exit_code == 0);
}

TEST_CASE("parity: a directory made below a setgid directory of its layer is setgid",
          "[image][parity]") {
    TempDir tmp;
    auto image = write_docker(
        tmp, layered_spec({{dir("opt/", 02755), file("opt/a/b/f", "f"), dir("opt/e/", 0700)},
                           {dir("srv/", 02755)},
                           {file("srv/a/f", "f")}}));
    auto listing = list_files(image);
    INFO(listing.result.err);
    REQUIRE(listing.result.exit_code == 0);
    // mkdir(2) in a setgid directory inherits the bit; the chown to root keeps it.
    CHECK(listing.at("/opt/a").mode == "2755");
    CHECK(listing.at("/opt/a/b").mode == "2755");
    CHECK(listing.at("/opt/e").mode == "0700");  // its own header sets it
    // The lower layer's setgid directory is not in this layer's upper directory: the
    // extraction makes /srv there first, 0755, and /srv/a below it.
    CHECK(listing.at("/srv").mode == "0755");
    CHECK(listing.at("/srv/a").mode == "0755");
}

namespace {

parity::RawEntry global_header(const std::string& name, const std::string& path_record) {
    parity::RawEntry entry;
    entry.name = name;
    entry.type = 'g';
    const std::string record = " path=" + path_record + "\n";
    const std::size_t digits = std::to_string(record.size() + 2).size();
    entry.data = std::to_string(record.size() + digits) + record;
    return entry;
}

}  // namespace

TEST_CASE("parity: a pax global header's parents are made, named by its own path record",
          "[image][parity]") {
    TempDir tmp;
    parity::HostileImage image = parity::generator_detail::base_image();
    parity::RawEntry setgid_dir;
    setgid_dir.name = "srv/";
    setgid_dir.type = '5';
    setgid_dir.mode = 02755;
    parity::RawEntry absolute;  // as GNU tar names them: $TMPDIR/GlobalHead.%p.%n
    absolute.name = "/tmp/GlobalHead.1.1";
    absolute.type = 'g';
    absolute.data = "11 foo=bar\n";
    image.layers.push_back({global_header("ignored/typed", "opt/ghost/deep"), setgid_dir,
                            global_header("pax_global_header", "srv/a/typed"), absolute,
                            global_header("x", "../../var/up/x")});
    auto archive = parity::write_hostile_archive(image, tmp / "image.tar", "localhost/p:g");
    auto listing = list_files(archive);
    INFO(listing.result.err);
    REQUIRE(listing.result.exit_code == 0);
    // Go's archive/tar names the header by its path record; the extraction makes its parents
    // (MkdirAll, 0755) and then skips it.
    CHECK(listing.at("/opt/ghost").mode == "0755");
    CHECK_FALSE(listing.has("/opt/ghost/deep"));
    CHECK_FALSE(listing.has("/ignored"));
    CHECK(listing.at("/srv/a").mode == "2755");
    CHECK_FALSE(listing.has("/srv/a/typed"));
    // Made inside the root, as podman makes /tmp and /var/up (checked against podman 4.3).
    CHECK(listing.at("/tmp").mode == "0755");
    CHECK(listing.at("/var/up").mode == "0755");
}
