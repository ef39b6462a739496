// Decides what kind of image a path holds and hands it to that format's reader.
#include <fcntl.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "cuvet/core/error.hpp"
#include "formats.hpp"

namespace cuvet::image {

namespace fs = std::filesystem;

namespace {

std::string read_head(const fs::path& path, std::size_t length) {
    std::ifstream in(path, std::ios::binary);
    std::string head(length, '\0');
    in.read(head.data(), static_cast<std::streamsize>(length));
    head.resize(static_cast<std::size_t>(in.gcount()));
    return head;
}

std::unique_ptr<Image> open_layered(std::unique_ptr<BlobStore> store, const std::string& path,
                                    bool is_archive, const OpenOptions& options) {
    if (store->exists("manifest.json")) return open_docker_archive(std::move(store), path, options);
    if (store->exists("index.json"))
        return open_oci_layout(std::move(store), path, is_archive ? "oci-archive" : "oci-layout", options);
    return nullptr;
}

std::unique_ptr<Image> open_store(std::unique_ptr<BlobStore> store, const std::string& path,
                                  bool is_archive, const OpenOptions& options) {
    // Type surprises deep in a manifest (a number where a string belongs)
    // surface as nlohmann exceptions; they are bad input, not internal errors.
    try {
        return open_layered(std::move(store), path, is_archive, options);
    } catch (const nlohmann::json::exception& e) {
        fail_input(path + ": unexpected JSON structure: " + e.what());
    }
}

}  // namespace

std::unique_ptr<Image> open_image(const fs::path& path, const OpenOptions& options) {
    std::error_code error;
    auto status = fs::status(path, error);
    if (error || !fs::exists(status)) fail_io(path.string() + ": no such file or directory");
    if (fs::is_directory(status)) {
        auto layered = open_store(open_dir_store(path), path.string(), false, options);
        return layered ? std::move(layered) : open_rootfs_dir(path);
    }
    if (!fs::is_regular_file(status)) fail_input(path.string() + ": not a regular file or directory");
    if (fs::file_size(path) == 0) fail_input(path.string() + ": empty file");
    std::string head = read_head(path, 6);
    if (head.rfind("\x1f\x8b", 0) == 0 || head.rfind("\x28\xb5\x2f\xfd", 0) == 0)
        fail_input(path.string() + ": compressed archive; decompress it first (gunzip / zstd -d) — "
                   "docker save and OCI archives are plain tar");
    auto layered = open_store(open_tar_store(path), path.string(), true, options);
    if (!layered)
        fail_input(path.string() + ": neither a docker-save archive (manifest.json) nor an OCI layout (index.json)");
    return layered;
}

}  // namespace cuvet::image
