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
    // The same image with views that agree reads as before.
    image.stale_oci_index = false;
    auto legacy = parity::write_hostile_archive(image, tmp / "legacy.tar", "localhost/p:2");
    CHECK(list_files(legacy).result.exit_code == 0);
    CHECK(list_files(write_docker(tmp, two_layer_spec())).result.exit_code == 0);
}
