// What the parity harness found cuvet reading otherwise than podman, each as a fixed image
// and the view podman showed for it (docs/parity.md). The same cases run against podman
// itself in tests/image/podman_overlay_differential_test.cpp (layer_edge_cases.hpp).
#include "image/image_fixtures.hpp"

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
