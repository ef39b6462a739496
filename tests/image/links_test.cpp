// Symlinks and hard links stay links and resolve inside the image: absolute
// targets start at the image root, ".." stops at the root, loops end.
#include "cuvet/image/image.hpp"
#include "image/image_fixtures.hpp"

using namespace cuvet::test;
namespace img = cuvet::image;
using Status = img::Resolution::Status;

namespace {

img::FileTree tree_of(const std::vector<std::vector<TarEntry>>& layers) {
    TempDir tmp;
    auto path = write_docker(tmp, layered_spec(layers, Compression::gzip));
    return img::open_image(path, {})->scan({});
}

const std::vector<TarEntry> cuda_like = {
    dir("etc/"),
    dir("etc/alternatives/"),
    dir("usr/"),
    dir("usr/local/"),
    dir("usr/local/cuda-12.1/"),
    dir("usr/local/cuda-12.1/targets/"),
    dir("usr/local/cuda-12.1/targets/x86_64-linux/"),
    dir("usr/local/cuda-12.1/targets/x86_64-linux/lib/"),
    file("usr/local/cuda-12.1/targets/x86_64-linux/lib/libcudart.so.12.1.105", "ELF"),
    soft_link("usr/local/cuda-12.1/targets/x86_64-linux/lib/libcudart.so.12",
              "libcudart.so.12.1.105"),
    soft_link("usr/local/cuda-12.1/lib64", "targets/x86_64-linux/lib"),
    soft_link("etc/alternatives/cuda", "/usr/local/cuda-12.1"),
    soft_link("usr/local/cuda", "/etc/alternatives/cuda"),
};

}  // namespace

TEST_CASE("symlinks are listed as links with their target as written", "[image][links]") {
    TempDir tmp;
    auto listing = list_files(write_docker(tmp, single_layer_spec(cuda_like)));
    REQUIRE(listing.result.exit_code == 0);
    CHECK(listing.at("/usr/local/cuda").type == "symlink");
    CHECK(listing.at("/usr/local/cuda").link_target == "/etc/alternatives/cuda");
    CHECK(listing.at("/usr/local/cuda-12.1/lib64").link_target == "targets/x86_64-linux/lib");
}

TEST_CASE("absolute and relative symlink chains resolve inside the image", "[image][links]") {
    auto tree = tree_of({cuda_like});
    auto r = tree.resolve("/usr/local/cuda/lib64/libcudart.so.12");
    REQUIRE(r.status == Status::ok);
    CHECK(r.path == "/usr/local/cuda-12.1/targets/x86_64-linux/lib/libcudart.so.12.1.105");
    REQUIRE(r.entry != nullptr);
    CHECK(r.entry->type == img::FileType::regular);
    CHECK(tree.resolve("/usr/local/cuda/lib64/libcudnn.so.8").status == Status::missing);
}

TEST_CASE("'..' in a link target never climbs above the image root", "[image][links]") {
    auto tree = tree_of({{dir("etc/"), file("etc/passwd", "root:x:0:0"), dir("a/"), dir("a/b/"),
                          soft_link("a/b/up", "../../../../../../etc/passwd"),
                          soft_link("a/b/host", "/../../etc/passwd")}});
    auto up = tree.resolve("/a/b/up");
    REQUIRE(up.status == Status::ok);
    CHECK(up.path == "/etc/passwd");
    auto host = tree.resolve("/a/b/host");
    REQUIRE(host.status == Status::ok);
    CHECK(host.path == "/etc/passwd");
}

TEST_CASE("symlink loops are detected, not followed forever", "[image][links]") {
    auto tree = tree_of({{soft_link("a", "b"), soft_link("b", "a"), soft_link("self", "self"),
                          soft_link("deep", "/a/x")}});
    CHECK(tree.resolve("/a").status == Status::loop);
    CHECK(tree.resolve("/self").status == Status::loop);
    CHECK(tree.resolve("/deep").status == Status::loop);
}

TEST_CASE("a long but finite chain of links resolves", "[image][links]") {
    std::vector<TarEntry> entries{file("target", "t")};
    for (int i = 0; i < 30; ++i)
        entries.push_back(
            soft_link("l" + std::to_string(i), i == 0 ? "target" : "l" + std::to_string(i - 1)));
    auto tree = tree_of({entries});
    auto r = tree.resolve("/l29");
    REQUIRE(r.status == Status::ok);
    CHECK(r.path == "/target");
}

TEST_CASE("a path through a regular file is not a directory", "[image][links]") {
    auto tree = tree_of({{file("f", "x"), soft_link("l", "f")}});
    CHECK(tree.resolve("/f/child").status == Status::not_a_directory);
    CHECK(tree.resolve("/l/child").status == Status::not_a_directory);
}

// A hard link to a lower layer's file is refused, as the overlay runtimes refuse it
// (podman_overlay_differential_test.cpp).
TEST_CASE("hard links point at their data", "[image][links]") {
    TempDir tmp;
    auto spec = layered_spec(
        {{dir("usr/"), dir("usr/bin/")},
         {file("usr/bin/perl", "#!perl", 0755), hard_link("usr/bin/perl5.34", "usr/bin/perl"),
          hard_link("./usr/bin/p2", "./usr/bin/perl")}},
        Compression::zstd);
    auto path = write_docker(tmp, spec);
    auto listing = list_files(path);
    REQUIRE(listing.result.exit_code == 0);
    CHECK(listing.at("/usr/bin/perl5.34").type == "hardlink");
    CHECK(listing.at("/usr/bin/perl5.34").link_target == "/usr/bin/perl");
    CHECK(listing.at("/usr/bin/p2").link_target == "/usr/bin/perl");

    auto tree = img::open_image(path, {})->scan({});
    const auto* link = tree.find("/usr/bin/perl5.34");
    REQUIRE(link != nullptr);
    const auto* data = tree.data_entry(*link);
    REQUIRE(data != nullptr);
    CHECK(data->path == "/usr/bin/perl");
    CHECK(data->size == 6);
}

TEST_CASE("selected bytes of a hard link are its data", "[image][links]") {
    TempDir tmp;
    auto spec =
        single_layer_spec({file("lib.so.1", "library bytes"), hard_link("lib.so", "lib.so.1")});
    auto opened = img::open_image(write_docker(tmp, spec), {});
    img::ScanOptions options;
    options.select = [](const img::FileEntry&) { return true; };
    auto tree = opened->scan(options);
    const auto* link = tree.find("/lib.so");
    REQUIRE(link != nullptr);
    const auto* data = tree.data_entry(*link);
    REQUIRE(data != nullptr);
    auto bytes = tree.content(data->path);
    REQUIRE(bytes);
    CHECK(*bytes == "library bytes");
}

TEST_CASE("a whiteout of a symlink removes the link, not its target", "[image][links]") {
    auto tree =
        tree_of({{dir("d/"), file("d/real", "r"), soft_link("link", "d")}, {whiteout("link")}});
    CHECK(tree.find("/link") == nullptr);
    CHECK(tree.find("/d/real") != nullptr);
}

TEST_CASE("a path under a lower layer's symlink makes a directory there, as overlay does",
          "[image][links]") {
    // The overlay runtimes extract a layer into a directory of its own, where the lower
    // layer's "lib -> usr/lib" is not there to follow: lib becomes a directory and hides it.
    TempDir tmp;
    auto listing = list_files(
        write_docker(tmp, layered_spec({{dir("usr/"), dir("usr/lib/"), file("usr/lib/base.so", "b"),
                                         soft_link("lib", "usr/lib")},
                                        {file("lib/x.so", "x")}})));
    INFO(listing.result.err);
    REQUIRE(listing.result.exit_code == 0);
    CHECK(listing.at("/lib").type == "dir");
    CHECK(listing.at("/lib/x.so").type == "file");
    CHECK_FALSE(listing.has("/usr/lib/x.so"));
    CHECK_FALSE(listing.has("/lib/base.so"));
    // A symlink of the layer itself is followed.
    TempDir own;
    auto followed = list_files(write_docker(
        own,
        layered_spec({{dir("usr/"), dir("usr/lib/")},
                      {dir("usr/lib/"), soft_link("lib", "usr/lib"), file("lib/x.so", "x")}})));
    INFO(followed.result.err);
    REQUIRE(followed.result.exit_code == 0);
    CHECK(followed.at("/lib").type == "symlink");
    CHECK(followed.has("/usr/lib/x.so"));
}

TEST_CASE("a path through the layer's own symlink into a directory it does not hold is refused",
          "[image][links]") {
    // The extractor sees only the layer's own directory, where usr/lib does not exist.
    TempDir tmp;
    auto listing = list_files(
        write_docker(tmp, layered_spec({{dir("usr/"), dir("usr/lib/")},
                                        {soft_link("lib", "usr/lib"), file("lib/x.so", "x")}})));
    CHECK(listing.result.exit_code == 3);
    CHECK(listing.result.err.find("\"no such file or directory\"") != std::string::npos);
}
