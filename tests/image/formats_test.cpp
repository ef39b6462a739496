// Every input format gives the same merged view of the same image.
#include "image/image_fixtures.hpp"

using namespace cuvet::test;
namespace fs = std::filesystem;

namespace {

void check_two_layer_view(const Listing& listing) {
    INFO(listing.result.err);
    REQUIRE(listing.result.exit_code == 0);
    CHECK(listing.at("/etc/hostname").type == "file");
    CHECK(listing.at("/etc/hostname").size == 5);
    CHECK(listing.at("/usr/lib/libfoo.so.1.2").size == 300000);
    CHECK(listing.at("/usr/lib/libfoo.so.1.2").mode == "0755");
    CHECK(listing.at("/usr/lib/libfoo.so.1").type == "symlink");
    CHECK(listing.at("/usr/lib/libfoo.so.1").link_target == "libfoo.so.1.2");
    CHECK(listing.at("/tmp").type == "dir");
    CHECK(listing.at("/tmp").mode == "1777");
    CHECK(listing.at("/opt/app.py").size == 12);
    CHECK_FALSE(listing.has("/tmp/gone"));
    CHECK_FALSE(listing.has("/tmp/.wh.gone"));
    CHECK(listing.files.size() == 9);
}

}  // namespace

TEST_CASE("every image format yields the same merged view", "[image][formats]") {
    TempDir tmp;
    ImageSpec spec = two_layer_spec();

    auto legacy = tmp / "legacy.tar";
    docker_archive({spec}, DockerLayout::legacy).write_tar(legacy);
    auto blobs = tmp / "blobs.tar";
    docker_archive({spec}, DockerLayout::blobs).write_tar(blobs);
    auto oci_dir = tmp / "oci";
    oci_layout({oci_image(spec, "1.0")}).write_dir(oci_dir);
    auto oci_tar = tmp / "oci.tar";
    oci_layout({oci_image(spec, "1.0")}).write_tar(oci_tar);
    auto rootfs = tmp / "rootfs";
    write_rootfs(rootfs, two_layer_merged());

    Listing reference = list_files(legacy);
    check_two_layer_view(reference);
    for (const auto& path : {blobs, oci_dir, oci_tar, rootfs}) {
        INFO("image " << path);
        Listing other = list_files(path);
        check_two_layer_view(other);
        if (path == rootfs) {
            // Symlink sizes are compared on their own below.
            auto expected = without_layers(reference.files), actual = without_layers(other.files);
            for (auto* view : {&expected, &actual})
                for (auto& [p, f] : *view)
                    if (f.type == "symlink") f.size = 0;
            CHECK(diff_views(expected, actual) == "");
        } else {
            CHECK(diff_views(reference.files, other.files) == "");
        }
    }
    CHECK(reference.at("/etc/hostname").layer == 1);
    CHECK(reference.at("/usr/lib/libfoo.so.1.2").layer == 0);
}

TEST_CASE("cuvet image reports format, config and history of each format", "[image][formats]") {
    TempDir tmp;
    ImageSpec spec = two_layer_spec();
    auto legacy = tmp / "legacy.tar";
    docker_archive({spec}, DockerLayout::legacy).write_tar(legacy);
    auto blobs = tmp / "blobs.tar";
    docker_archive({spec}, DockerLayout::blobs).write_tar(blobs);
    auto oci_dir = tmp / "oci";
    oci_layout({oci_image(spec, "1.0")}).write_dir(oci_dir);
    auto oci_tar = tmp / "oci.tar";
    oci_layout({oci_image(spec, "1.0")}).write_tar(oci_tar);

    EncodedImage encoded = encode_image(spec);
    const std::vector<std::pair<fs::path, std::string>> cases = {{legacy, "docker-archive"},
                                                                 {blobs, "docker-archive"},
                                                                 {oci_dir, "oci-layout"},
                                                                 {oci_tar, "oci-archive"}};
    for (const auto& [path, format] : cases) {
        INFO("image " << path);
        auto summary = image_summary(path);
        REQUIRE(summary.is_object());
        CHECK(summary["format"] == format);
        CHECK(summary["platform"] == "linux/amd64");
        CHECK(summary["config_digest"] == encoded.config.digest);
        CHECK(summary["env"] == nlohmann::json(spec.env));
        CHECK(summary["entrypoint"] == nlohmann::json(spec.entrypoint));
        REQUIRE(summary["layers"].size() == 2);
        CHECK(summary["layers"][0]["created_by"] == spec.layers[0].created_by);
        CHECK(summary["layers"][1]["created_by"] == spec.layers[1].created_by);
        CHECK(summary["layers"][1]["size"] == encoded.layers[1].bytes.size());
        // The ENV line made no layer: history has three lines for two layers.
        REQUIRE(summary["history"].size() == 3);
        CHECK(summary["history"][1]["empty_layer"] == true);
        CHECK(summary["history"][1]["created_by"] == "ENV FOO=bar");
        if (format != "docker-archive") {
            CHECK(summary["manifest_digest"] == encoded.manifest.digest);
            CHECK(summary["layers"][0]["digest"] == encoded.layers[0].digest);
        } else {
            CHECK(summary["reference"] == "example/two:1.0");
        }
    }
}

TEST_CASE("a rootfs directory is read as one layer", "[image][formats]") {
    TempDir tmp;
    auto rootfs = tmp / "rootfs";
    write_rootfs(rootfs, {dir("etc/"), file("etc/os-release", "ID=debian\n"),
                          soft_link("etc/alt", "/usr/share/alt"),
                          file("usr/bin/tool", "#!/bin/sh\n", 0755)});
    auto listing = list_files(rootfs);
    REQUIRE(listing.result.exit_code == 0);
    CHECK(listing.at("/etc/os-release").size == 10);
    CHECK(listing.at("/etc/alt").type == "symlink");
    CHECK(listing.at("/etc/alt").link_target == "/usr/share/alt");
    CHECK(listing.at("/usr/bin/tool").mode == "0755");
    CHECK(listing.at("/usr/bin").type == "dir");
    auto summary = image_summary(rootfs);
    REQUIRE(summary.is_object());
    CHECK(summary["format"] == "rootfs");
}

TEST_CASE("several images in one docker archive are chosen with --image", "[image][formats]") {
    TempDir tmp;
    ImageSpec a = single_layer_spec({file("which", "a\n")});
    a.repo_tags = {"example/a:1"};
    ImageSpec b = single_layer_spec({file("which", "bb\n"), file("only-b", "")});
    b.repo_tags = {"example/b:2", "example/b:latest"};
    for (auto layout : {DockerLayout::legacy, DockerLayout::blobs}) {
        auto path = tmp / (layout == DockerLayout::legacy ? "legacy.tar" : "blobs.tar");
        docker_archive({a, b}, layout).write_tar(path);
        INFO("image " << path);

        auto first = list_files(path, {"--image", "example/a:1"});
        REQUIRE(first.result.exit_code == 0);
        CHECK(first.at("/which").size == 2);
        CHECK_FALSE(first.has("/only-b"));

        auto second = list_files(path, {"--image", "example/b:2"});
        REQUIRE(second.result.exit_code == 0);
        CHECK(second.at("/which").size == 3);
        CHECK(second.has("/only-b"));
        CHECK(list_files(path, {"--image", "example/b"}).files ==
              second.files);  // ":latest" implied

        auto summary = image_summary(path, {"--image", "example/a:1"});
        REQUIRE(summary.is_object());
        CHECK(summary["reference"] == "example/a:1");
        CHECK(summary["other_images"].size() == 2);

        // Ambiguous or unknown choices are refused, naming what there is.
        auto ambiguous = run_cuvet({"files", path.string()});
        CHECK(ambiguous.exit_code == 2);
        CHECK(ambiguous.err.find("example/b:2") != std::string::npos);
        auto unknown = run_cuvet({"files", "--image", "example/c:3", path.string()});
        CHECK(unknown.exit_code == 2);
        CHECK(unknown.err.find("example/c:3") != std::string::npos);
    }
}

TEST_CASE("OCI nested index leads to the image", "[image][formats]") {
    TempDir tmp;
    ImageSpec spec = single_layer_spec({file("nested", "yes\n")}, Compression::gzip);
    auto path = tmp / "oci";
    oci_layout({oci_index({oci_index({oci_image(spec)})}, "v1")}).write_dir(path);
    auto listing = list_files(path);
    REQUIRE(listing.result.exit_code == 0);
    CHECK(listing.at("/nested").size == 4);
}

TEST_CASE("OCI multi-platform index: linux/amd64 by default, --platform picks another",
          "[image][formats]") {
    TempDir tmp;
    ImageSpec amd64 = single_layer_spec({file("arch", "amd64\n")}, Compression::gzip);
    ImageSpec arm64 = single_layer_spec({file("arch", "arm64v8\n")}, Compression::zstd);
    arm64.architecture = "arm64";
    arm64.variant = "v8";
    ImageSpec ppc = single_layer_spec({file("arch", "ppc64le!\n")});
    ppc.architecture = "ppc64le";
    auto path = tmp / "oci.tar";
    // Not the first entry: the default must be chosen by platform, not position.
    oci_layout({oci_index({oci_image(arm64), oci_image(amd64), oci_image(ppc)}, "multi")})
        .write_tar(path);

    auto by_default = list_files(path);
    REQUIRE(by_default.result.exit_code == 0);
    CHECK(by_default.at("/arch").size == 6);

    auto arm = list_files(path, {"--platform", "linux/arm64"});
    REQUIRE(arm.result.exit_code == 0);
    CHECK(arm.at("/arch").size == 8);
    CHECK(list_files(path, {"--platform", "linux/arm64/v8"}).files == arm.files);

    auto summary = image_summary(path, {"--platform", "linux/ppc64le"});
    REQUIRE(summary.is_object());
    CHECK(summary["platform"] == "linux/ppc64le");

    auto missing = run_cuvet({"files", "--platform", "linux/s390x", path.string()});
    CHECK(missing.exit_code == 2);
    CHECK(missing.err.find("linux/arm64") != std::string::npos);  // says what is available
}

TEST_CASE("OCI layout with several refs is chosen by --image", "[image][formats]") {
    TempDir tmp;
    ImageSpec one = single_layer_spec({file("n", "1")});
    ImageSpec two = single_layer_spec({file("n", "22")});
    auto path = tmp / "oci";
    oci_layout({oci_image(one, "one", false), oci_image(two, "two", false)}).write_dir(path);
    auto listing = list_files(path, {"--image", "two"});
    REQUIRE(listing.result.exit_code == 0);
    CHECK(listing.at("/n").size == 2);
    CHECK(run_cuvet({"files", path.string()}).exit_code == 2);
}

TEST_CASE("a symlink has the same size in a rootfs dir as in a layer", "[image][formats]") {
    TempDir tmp;
    std::vector<TarEntry> entries{soft_link("link", "some/target")};
    auto rootfs = tmp / "rootfs";
    write_rootfs(rootfs, entries);
    std::filesystem::create_directories(rootfs / "etc");  // an OS root, not just any directory
    auto tar = write_docker(tmp, single_layer_spec(entries));
    auto from_dir = list_files(rootfs), from_tar = list_files(tar);
    REQUIRE(from_dir.result.exit_code == 0);
    REQUIRE(from_tar.result.exit_code == 0);
    CHECK(from_dir.at("/link").size == from_tar.at("/link").size);
}
