// The runtime as the oracle: each layer edge case is loaded into a private podman store
// with overlay storage (Go's archive/tar, each layer extracted into its own directory,
// merged by the kernel's overlayfs, as docker's overlay2 and containerd do), and the merged
// tree podman mounts must equal cuvet's merged view. An image podman refuses, cuvet refuses.
#include "image/image_fixtures.hpp"
#include "image/layer_edge_cases.hpp"
#include "image/rootfs_oracle.hpp"
#include "parity/runtime_oracle.hpp"
#include "support/skip.hpp"

using namespace cuvet::test;

namespace {

std::string last_line(const std::string& text) {
    auto lines = lines_of(text);
    return lines.empty() ? "" : lines.back();
}

}  // namespace

TEST_CASE("cuvet's merged view is podman's overlay view", "[integration][image][oracle]") {
    if (!have_program("podman")) {
        CUVET_SKIP("skipped: podman is not installed");
    }
    TempDir tmp;
    parity::PodmanStore store(tmp / "store");
    int index = 0;
    for (const auto& c : layer_edge_cases()) {
        INFO("case: " << c.name);
        const std::string tag = "localhost/edge:" + std::to_string(index++);
        ImageSpec spec =
            c.layers.empty() ? two_layer_spec() : layered_spec(c.layers, Compression::gzip);
        spec.repo_tags = {tag};
        auto image = write_docker(tmp, spec, "case.tar");
        auto listing = list_files(image);
        auto load = store.podman("load -q -i " + shell_quote(image.string()));
        INFO("podman load: " << load.out << load.err);
        // The first case is an ordinary image: podman refusing it means no overlay storage here.
        if (load.exit_code != 0 && index == 1)
            CUVET_SKIP("skipped: podman cannot use overlay storage here: " << load.err);
        if (load.exit_code != 0) {
            INFO("cuvet: " << listing.result.err);
            CHECK(listing.result.exit_code == 3);
            continue;
        }
        auto mount = store.podman("image mount " + tag);
        if (mount.exit_code != 0 && index == 1)
            CUVET_SKIP("skipped: podman cannot mount overlay storage here: " << mount.err);
        REQUIRE(mount.exit_code == 0);
        INFO("cuvet: " << listing.result.err);
        REQUIRE(listing.result.exit_code == 0);
        auto merged = walk_rootfs(last_line(mount.out));
        // A whiteout in a directory no lower layer merges with is listed by readdir, but no
        // lookup finds it (lstat fails: mode "?"): nothing is there.
        std::erase_if(merged, [](const auto& item) { return item.second.mode == "?"; });
        CHECK(diff_views(merged, comparable(listing)) == "");
        store.podman("image umount --force " + tag);
        store.podman("rmi --force " + tag);
    }
}
