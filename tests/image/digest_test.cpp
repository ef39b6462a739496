// Blob digests are verified (sha256) unless --no-verify; a mismatch names the blob.
#include "image/image_fixtures.hpp"

using namespace cuvet::test;

namespace {

// One uncompressed layer holding one big file: a flipped byte in the middle
// of the blob lands in file data, so only the digest can notice it.
ImageSpec data_heavy_spec() {
    return single_layer_spec({file("data.bin", pseudo_random_bytes(200000, 3))}, Compression::none);
}

}  // namespace

TEST_CASE("a layer blob whose bytes do not match its digest is refused", "[image][digest]") {
    TempDir tmp;
    SECTION("OCI layout") {
        ImageFiles files = oci_layout({oci_image(data_heavy_spec())});
        const std::string layer = files.images[0].layers[0];
        files.flip_byte(layer);
        files.write_dir(tmp / "oci");
        auto result = run_cuvet({"files", (tmp / "oci").string()});
        require_bad_input(result, layer.substr(layer.rfind('/') + 1, 12));
        CHECK(result.err.find("digest") != std::string::npos);
        auto unchecked = run_cuvet({"files", "--no-verify", (tmp / "oci").string()});
        CHECK(unchecked.exit_code == 0);
        CHECK(unchecked.out.find("/data.bin") != std::string::npos);
    }
    SECTION("docker archive, blobs layout") {
        ImageFiles files = docker_archive({data_heavy_spec()}, DockerLayout::blobs);
        const std::string layer = files.images[0].layers[0];
        files.flip_byte(layer);
        files.write_tar(tmp / "image.tar");
        require_bad_input(run_cuvet({"files", (tmp / "image.tar").string()}),
                          layer.substr(layer.rfind('/') + 1, 12));
        CHECK(run_cuvet({"files", "--no-verify", (tmp / "image.tar").string()}).exit_code == 0);
    }
    SECTION("docker archive, legacy layout: checked against the config's diff_ids") {
        ImageFiles files = docker_archive({data_heavy_spec()}, DockerLayout::legacy);
        const std::string layer = files.images[0].layers[0];
        files.flip_byte(layer);
        files.write_tar(tmp / "image.tar");
        require_bad_input(run_cuvet({"files", (tmp / "image.tar").string()}), layer);
        CHECK(run_cuvet({"files", "--no-verify", (tmp / "image.tar").string()}).exit_code == 0);
    }
}

TEST_CASE("a gzip layer is verified against both its digest and its diff_id", "[image][digest]") {
    TempDir tmp;
    ImageSpec spec = data_heavy_spec();
    spec.layers[0].compression = Compression::gzip;
    ImageFiles files = oci_layout({oci_image(spec)});
    // A diff_id that does not match the uncompressed tar: the config lies.
    files.edit_json(files.images[0].config, [](nlohmann::json& config) {
        config["rootfs"]["diff_ids"][0] = "sha256:" + std::string(64, 'e');
    });
    // Keep the manifest's config descriptor consistent with the edited config.
    const std::string old_config = files.images[0].config;
    std::string new_hex = sha256_hex(files.files[old_config]);
    files.files["blobs/sha256/" + new_hex] = files.files[old_config];
    files.files.erase(old_config);
    const std::string manifest = files.images[0].manifest;
    files.edit_json(manifest,
                    [&](nlohmann::json& m) { m["config"]["digest"] = "sha256:" + new_hex; });
    std::string manifest_hex = sha256_hex(files.files[manifest]);
    files.files["blobs/sha256/" + manifest_hex] = files.files[manifest];
    files.files.erase(manifest);
    files.edit_json("index.json", [&](nlohmann::json& index) {
        index["manifests"][0]["digest"] = "sha256:" + manifest_hex;
        index["manifests"][0]["size"] = files.files["blobs/sha256/" + manifest_hex].size();
    });
    files.write_dir(tmp / "oci");
    require_bad_input(run_cuvet({"files", (tmp / "oci").string()}), std::string(12, 'e'));
    CHECK(run_cuvet({"files", "--no-verify", (tmp / "oci").string()}).exit_code == 0);
}

TEST_CASE("config and manifest blobs are verified too", "[image][digest]") {
    TempDir tmp;
    ImageSpec spec = two_layer_spec();
    SECTION("config") {
        ImageFiles files = oci_layout({oci_image(spec)});
        const std::string config = files.images[0].config;
        files.files[config].insert(files.files[config].size() - 1, " ");  // still valid JSON
        files.write_dir(tmp / "oci");
        require_bad_input(run_cuvet({"image", (tmp / "oci").string()}), config.substr(13, 12));
    }
    SECTION("manifest") {
        ImageFiles files = oci_layout({oci_image(spec)});
        const std::string manifest = files.images[0].manifest;
        files.files[manifest] += "\n";
        files.write_dir(tmp / "oci");
        require_bad_input(run_cuvet({"image", (tmp / "oci").string()}), manifest.substr(13, 12));
    }
    SECTION("docker blobs layout config") {
        ImageFiles files = docker_archive({spec}, DockerLayout::blobs);
        const std::string config = files.images[0].config;
        files.files[config].insert(files.files[config].size() - 1, " ");
        files.write_tar(tmp / "image.tar");
        require_bad_input(run_cuvet({"image", (tmp / "image.tar").string()}),
                          config.substr(13, 12));
    }
}

TEST_CASE("a descriptor size that disagrees with the blob is refused", "[image][digest]") {
    TempDir tmp;
    ImageFiles files = oci_layout({oci_image(two_layer_spec())});
    const std::string manifest = files.images[0].manifest;
    // The manifest blob itself is referenced with a wrong size.
    files.edit_json("index.json", [](nlohmann::json& index) { index["manifests"][0]["size"] = 3; });
    files.write_dir(tmp / "oci");
    auto result = run_cuvet({"files", (tmp / "oci").string()});
    require_bad_input(result, manifest.substr(13, 12));
}

TEST_CASE("verification passes on every well-formed format", "[image][digest]") {
    TempDir tmp;
    ImageSpec spec = two_layer_spec(Compression::zstd);
    docker_archive({spec}, DockerLayout::legacy).write_tar(tmp / "legacy.tar");
    docker_archive({spec}, DockerLayout::blobs).write_tar(tmp / "blobs.tar");
    oci_layout({oci_image(spec)}).write_tar(tmp / "oci.tar");
    for (const auto* name : {"legacy.tar", "blobs.tar", "oci.tar"}) {
        auto result = run_cuvet({"files", (tmp / name).string()});
        INFO(name << ": " << result.err);
        CHECK(result.exit_code == 0);
        CHECK(result.err.empty());
    }
}
