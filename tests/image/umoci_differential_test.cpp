// Our writer's layer edge cases, applied by umoci as a second opinion: umoci
// unpacks the same OCI layout, and cuvet's merged view must match its rootfs.
#include "image/image_fixtures.hpp"
#include "image/rootfs_oracle.hpp"
#include "support/skip.hpp"

using namespace cuvet::test;

namespace {

struct Case {
    const char* name;
    std::vector<std::vector<TarEntry>> layers;
};

std::vector<Case> cases() {
    return {
        {"two layers with a whiteout and an override", {}},
        {"whiteout and file in one layer, both orders",
         {{file("a", "low"), file("b", "low")},
          {whiteout("a"), file("a", "same"), file("b", "same"), whiteout("b")}}},
        {"opaque directory",
         {{dir("d/"), file("d/old", "o"), dir("d/sub/"), file("d/sub/x", "x"), file("keep", "")},
          {dir("d/"), opaque("d"), file("d/new", "n")}}},
        {"file replaces directory, directory replaces file",
         {{dir("d/"), file("d/child", "c"), file("f", "plain")},
          {file("d", "now a file"), dir("f/"), file("f/in", "i")}}},
        {"symlink replaces directory",
         {{dir("opt/"), dir("opt/lib/"), file("opt/lib/x", "x")},
          {soft_link("opt/lib", "/usr/lib")}}},
        {"whiteout of a directory, then recreated",
         {{dir("w/"), file("w/1", "1"), file("w/2", "2")},
          {whiteout("w")},
          {dir("w/"), file("w/3", "3")}}},
        {"hard link to a lower layer's file",
         {{dir("bin/"), file("bin/tool", "#!/bin/sh\n", 0755)},
          {hard_link("bin/tool2", "bin/tool")}}},
        {"implicit parents and ./ names",
         {{file("./usr/share/doc/a/README", "r")}, {file("./usr/share/doc/b/README", "rr")}}},
        {"a layer writes through a lower layer's directory symlink (merged /usr)",
         {{dir("usr/"), dir("usr/lib/"), soft_link("lib", "usr/lib")}, {file("lib/x.so", "x")}}},
        {"a directory entry replaces a lower layer's symlink",
         {{dir("usr/"), dir("usr/lib/"), soft_link("lib", "usr/lib")},
          {dir("lib/"), file("lib/x.so", "x")}}},
        {"modes survive layering",
         {{file("s", "x", 04755), dir("sticky/", 01777), file("secret", "k", 0600)},
          {file("secret", "k2", 0640)}}},
    };
}

}  // namespace

TEST_CASE("cuvet and umoci agree on layer edge cases", "[integration][image][oracle]") {
    if (!have_program("umoci")) {
        CUVET_SKIP("skipped: umoci is not installed");
    }
    for (const auto& c : cases()) {
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
