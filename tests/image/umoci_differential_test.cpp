// Our writer's layer edge cases, applied by umoci as a second opinion: umoci
// unpacks the same OCI layout, and cuvet's merged view must match its rootfs.
#include "image/image_fixtures.hpp"
#include "image/layer_edge_cases.hpp"
#include "image/rootfs_oracle.hpp"
#include "support/skip.hpp"

using namespace cuvet::test;

TEST_CASE("cuvet and umoci agree on layer edge cases", "[integration][image][oracle]") {
    if (!have_program("umoci")) {
        CUVET_SKIP("skipped: umoci is not installed");
    }
    for (const auto& c : layer_edge_cases()) {
        if (c.umoci_differs) continue;  // podman_overlay_differential_test.cpp judges these
        INFO("case: " << c.name);
        TempDir tmp;
        ImageSpec spec =
            c.layers.empty() ? two_layer_spec() : layered_spec(c.layers, Compression::gzip);
        oci_layout({oci_image(spec, "t")}).write_dir(tmp / "oci");
        auto unpack =
            run_shell("umoci unpack --image " + shell_quote((tmp / "oci").string() + ":t") + " " +
                      shell_quote((tmp / "bundle").string()));
        INFO("umoci: " << unpack.err);
        REQUIRE(unpack.exit_code == 0);
        auto listing = list_files(tmp / "oci");
        INFO("cuvet: " << listing.result.err);
        REQUIRE(listing.result.exit_code == 0);
        CHECK(diff_views(walk_rootfs(tmp / "bundle/rootfs"), comparable(listing)) == "");
    }
}
