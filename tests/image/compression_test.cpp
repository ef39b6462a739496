// Layers are decompressed by what their bytes are, never by what the
// manifest claims, and every byte of every file comes out intact.
#include <mutex>

#include "cuvet/image/image.hpp"
#include "image/image_fixtures.hpp"

using namespace cuvet::test;
namespace img = cuvet::image;

namespace {

// Reads the image through the library and returns the bytes of `path`.
std::string content_of(const std::filesystem::path& image, const std::string& path,
                       unsigned workers = 0) {
    auto opened = img::open_image(image, {});
    img::ScanOptions options;
    options.workers = workers;
    options.select = [&](const img::FileEntry& entry) { return entry.path == path; };
    img::FileTree tree = opened->scan(options);
    auto bytes = tree.content(path);
    return bytes ? *bytes : std::string("<no content kept>");
}

}  // namespace

TEST_CASE("none, gzip and zstd layers give the same view", "[image][compression]") {
    TempDir tmp;
    auto none = write_docker(tmp, two_layer_spec(Compression::none), "none.tar");
    auto gzip = write_docker(tmp, two_layer_spec(Compression::gzip), "gzip.tar");
    auto zstd = write_docker(tmp, two_layer_spec(Compression::zstd), "zstd.tar");
    auto reference = list_files(none);
    REQUIRE(reference.result.exit_code == 0);
    REQUIRE(reference.files.size() == 9);
    for (const auto& path : {gzip, zstd}) {
        INFO("image " << path);
        auto other = list_files(path);
        REQUIRE(other.result.exit_code == 0);
        CHECK(diff_views(reference.files, other.files) == "");
    }
}

TEST_CASE("compression is detected by magic bytes, not the declared media type",
          "[image][compression]") {
    TempDir tmp;
    ImageSpec spec = two_layer_spec(Compression::gzip);
    SECTION("gzip declared as plain tar") {
        for (auto& layer : spec.layers) layer.media_type = "application/vnd.oci.image.layer.v1.tar";
    }
    SECTION("plain tar declared as gzip") {
        for (auto& layer : spec.layers) {
            layer.compression = Compression::none;
            layer.media_type = "application/vnd.oci.image.layer.v1.tar+gzip";
        }
    }
    SECTION("zstd declared as gzip, docker media type") {
        for (auto& layer : spec.layers) {
            layer.compression = Compression::zstd;
            layer.media_type = "application/vnd.docker.image.rootfs.diff.tar.gzip";
        }
    }
    SECTION("one layer of each kind") {
        spec.layers[0].compression = Compression::zstd;
        spec.layers[1].compression = Compression::none;
        spec.layers[1].media_type = "application/octet-stream";
    }
    auto path = tmp / "oci";
    oci_layout({oci_image(spec)}).write_dir(path);
    auto listing = list_files(path);
    INFO(listing.result.err);
    REQUIRE(listing.result.exit_code == 0);
    CHECK(listing.at("/usr/lib/libfoo.so.1.2").size == 300000);
    CHECK(listing.at("/etc/hostname").size == 5);
    CHECK_FALSE(listing.has("/tmp/gone"));
}

TEST_CASE("selected file bytes come out intact from every compression", "[image][compression]") {
    TempDir tmp;
    // Larger than any sensible read buffer, and not a multiple of 512.
    const std::string big = pseudo_random_bytes(5 * 1024 * 1024 + 123, 7);
    for (auto compression : {Compression::none, Compression::gzip, Compression::zstd}) {
        INFO("compression " << to_string(compression));
        ImageSpec spec = layered_spec({{file("a/small", "x"), file("a/big.so", big)},
                                       {file("b/other", pseudo_random_bytes(70000, 9))}},
                                      compression);
        auto path = write_docker(tmp, spec, std::string(to_string(compression)) + ".tar");
        CHECK(content_of(path, "/a/big.so") == big);
        CHECK(content_of(path, "/a/big.so", 1) == big);
        CHECK(content_of(path, "/a/small") == "x");
    }
}

TEST_CASE("on_content sees every selected file, including replaced ones", "[image][compression]") {
    TempDir tmp;
    ImageSpec spec = layered_spec({{file("lib/libx.so", "old")}, {file("lib/libx.so", "newer")}},
                                  Compression::zstd);
    auto path = write_docker(tmp, spec);
    auto opened = img::open_image(path, {});
    std::mutex lock;
    std::map<int, std::string> seen;
    img::ScanOptions options;
    options.select = [](const img::FileEntry& entry) { return entry.path == "/lib/libx.so"; };
    options.on_content = [&](const img::FileEntry& entry, std::string_view bytes) {
        std::lock_guard<std::mutex> guard(lock);
        seen[entry.layer] = std::string(bytes);
    };
    img::FileTree tree = opened->scan(options);
    CHECK(seen == std::map<int, std::string>{{0, "old"}, {1, "newer"}});
    REQUIRE(tree.find("/lib/libx.so") != nullptr);
    CHECK(tree.find("/lib/libx.so")->layer == 1);
}

TEST_CASE("the whole image may be gzip-compressed by mistake: a clear error",
          "[image][compression]") {
    TempDir tmp;
    auto path = tmp / "image.tar.gz";
    docker_archive({two_layer_spec()}).write_tar(path, Compression::gzip);
    auto result = run_cuvet({"files", path.string()});
    require_bad_input(result, path.string());
}
