// Decides what kind of image a path holds and hands it to that format's reader.
#include <fcntl.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "cuvet/core/error.hpp"
#include "daemon.hpp"
#include "formats.hpp"
#include "registry_reference.hpp"

namespace cuvet::image {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view registry_prefix = "docker://";
constexpr std::string_view daemon_prefix = "docker-daemon:";
constexpr std::string_view storage_prefix = "containers-storage:";

std::unique_ptr<Image> open_from_daemon(const std::string& name, const OpenOptions& options) {
    std::vector<std::string> tried;
    if (auto image = open_daemon_image(name, options, &tried)) return image;
    std::string reasons;
    for (const auto& reason : tried) reasons += "; " + reason;
    fail_input("docker-daemon:" + name + ": not found" +
               (tried.empty() ? " (no Docker or podman API socket here)" : reasons));
}

// A bare REPO:TAG that names no file: the local daemons first (what a CI job
// just built), then the registry it names, as docker run would.
std::unique_ptr<Image> open_by_name(const std::string& name, const OpenOptions& options) {
    std::vector<std::string> tried;
    if (auto image = open_daemon_image(name, options, &tried)) return image;
    return open_registry_image(name, options);
}

// Names that are files by their shape, never references: a path
// ("./x", "/x", "../x", "~/x") or an archive's extension ("myimage:v1.tar").
bool looks_like_file_name(std::string_view text) {
    for (std::string_view prefix : {"/", "./", "../", "~"})
        if (text.substr(0, prefix.size()) == prefix) return true;
    for (std::string_view suffix : {".tar", ".tar.gz", ".tgz", ".tar.zst", ".tzst", ".tar.xz", ".oci", ".zip"})
        if (text.size() > suffix.size() && text.substr(text.size() - suffix.size()) == suffix) return true;
    return false;
}

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
    const std::string text = path.string();
    if (text.rfind(registry_prefix, 0) == 0)
        return open_registry_image(text.substr(registry_prefix.size()), options);
    if (text.rfind(daemon_prefix, 0) == 0) return open_from_daemon(text.substr(daemon_prefix.size()), options);
    if (text.rfind(storage_prefix, 0) == 0) return open_containers_storage(text.substr(storage_prefix.size()), options);
    std::error_code error;
    auto status = fs::status(path, error);
    if (error || !fs::exists(status)) {
        // Only a name with a tag or digest that does not read as a file name
        // is taken for a reference: a mistyped file must stay a "no such
        // file" error, and must not reach the network.
        if (text.find_first_of(":@") != std::string::npos && !looks_like_file_name(text) &&
            looks_like_reference(text))
            return open_by_name(text, options);
        fail_io(path.string() + ": no such file or directory");
    }
    if (fs::is_directory(status)) {
        auto layered = open_store(open_dir_store(path), path.string(), false, options);
        if (layered) return layered;
        if (!looks_like_root_fs(path))
            fail_input(path.string() +
                       ": no image found: no manifest.json (docker save), no index.json (OCI layout), and none "
                       "of usr, etc, bin, sbin, lib, lib64, opt at its top (a root file system has them)");
        return open_rootfs_dir(path, options);
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
