// The table of transports and the openers that are not a format's own reader:
// the local daemons, a bare name, and the directory or archive whose format
// is decided by what is inside it.
#include "image/transports/transports.hpp"

#include <array>
#include <fstream>
#include <nlohmann/json.hpp>
#include <vector>

#include "cuvet/core/error.hpp"
#include "image/registry/registry_reference.hpp"
#include "image/transports/daemon.hpp"
#include "image/transports/formats.hpp"

namespace cuvet::image {

namespace fs = std::filesystem;

namespace {

std::unique_ptr<Image> open_registry(const Reference&, const std::string& name,
                                     const OpenOptions& options) {
    return open_registry_image(name, options);
}

std::unique_ptr<Image> open_from_daemon(const Reference&, const std::string& name,
                                        const OpenOptions& options) {
    std::vector<std::string> tried;
    if (auto image = open_daemon_image(name, options, &tried)) return image;
    std::string reasons;
    for (const auto& reason : tried) reasons += "; " + reason;
    fail_input("docker-daemon:" + name + ": not found" +
               (tried.empty() ? " (no Docker or podman API socket here)" : reasons));
}

std::unique_ptr<Image> open_from_storage(const Reference&, const std::string& name,
                                         const OpenOptions& options) {
    return open_containers_storage(name, options);
}

// Names that are files by their shape, never references: a path
// ("./x", "/x", "../x", "~/x") or an archive's extension ("myimage:v1.tar").
bool looks_like_file_name(std::string_view text) {
    for (std::string_view prefix : {"/", "./", "../", "~"})
        if (text.substr(0, prefix.size()) == prefix) return true;
    for (std::string_view suffix :
         {".tar", ".tar.gz", ".tgz", ".tar.zst", ".tzst", ".tar.xz", ".oci", ".zip"})
        if (text.size() > suffix.size() && text.substr(text.size() - suffix.size()) == suffix)
            return true;
    return false;
}

// Only a name with a tag or digest that does not read as a file name is
// taken for a reference: a mistyped file must stay a "no such file" error,
// and must not reach the network.
bool is_bare_name(const Reference& reference) {
    const std::string& text = reference.text;
    return reference.missing && text.find_first_of(":@") != std::string::npos &&
           !looks_like_file_name(text) && looks_like_reference(text);
}

// A bare REPO:TAG that names no file: the local daemons first (what a CI job
// just built), then the registry it names, as docker run would.
std::unique_ptr<Image> open_by_name(const Reference&, const std::string& name,
                                    const OpenOptions& options) {
    std::vector<std::string> tried;
    if (auto image = open_daemon_image(name, options, &tried)) return image;
    return open_registry_image(name, options);
}

std::unique_ptr<Image> open_layered(std::unique_ptr<BlobStore> store, const std::string& path,
                                    bool is_archive, const OpenOptions& options) {
    if (store->exists("manifest.json"))
        return open_docker25_archive(std::move(store), path, options);
    if (store->exists("index.json"))
        return open_oci_layout(std::move(store), path, is_archive ? "oci-archive" : "oci-layout",
                               options);
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

bool is_directory(const Reference& reference) {
    return !reference.missing && fs::is_directory(reference.status);
}

// A docker save directory, an OCI layout, or a root file system.
std::unique_ptr<Image> open_directory(const Reference& reference, const std::string& name,
                                      const OpenOptions& options) {
    auto layered = open_store(open_dir_store(reference.path), name, false, options);
    if (layered) return layered;
    if (!looks_like_root_fs(reference.path))
        fail_input(
            name +
            ": no image found: no manifest.json (docker save), no index.json (OCI layout), and "
            "none "
            "of usr, etc, bin, sbin, lib, lib64, opt at its top (a root file system has them)");
    return open_rootfs_dir(reference.path, options);
}

// Anything else that exists is taken for an archive and refused if it is not one.
bool is_other_file(const Reference& reference) {
    return !reference.missing && !fs::is_directory(reference.status);
}

std::string read_head(const fs::path& path, std::size_t length) {
    std::ifstream in(path, std::ios::binary);
    std::string head(length, '\0');
    in.read(head.data(), static_cast<std::streamsize>(length));
    head.resize(static_cast<std::size_t>(in.gcount()));
    return head;
}

// A docker save or OCI archive: a plain tar.
std::unique_ptr<Image> open_archive(const Reference& reference, const std::string& name,
                                    const OpenOptions& options) {
    if (!fs::is_regular_file(reference.status))
        fail_input(name + ": not a regular file or directory");
    if (fs::file_size(reference.path) == 0) fail_input(name + ": empty file");
    std::string head = read_head(reference.path, 6);
    if (head.rfind("\x1f\x8b", 0) == 0 || head.rfind("\x28\xb5\x2f\xfd", 0) == 0)
        fail_input(name +
                   ": compressed archive; decompress it first (gunzip / zstd -d) — "
                   "docker save and OCI archives are plain tar");
    auto layered = open_store(open_tar_store(reference.path), name, true, options);
    if (!layered)
        fail_input(
            name +
            ": neither a docker-save archive (manifest.json) nor an OCI layout (index.json)");
    return layered;
}

// Order is precedence: a prefix wins over a file of that name, and a bare
// name is only a reference when no file has it.
constexpr std::array<Transport, 6> table{{
    {"docker", "docker://", nullptr, open_registry},
    {"docker-daemon", "docker-daemon:", nullptr, open_from_daemon},
    {"containers-storage", "containers-storage:", nullptr, open_from_storage},
    {"directory", "", is_directory, open_directory},
    {"archive", "", is_other_file, open_archive},
    {"name", "", is_bare_name, open_by_name},
}};

}  // namespace

std::span<const Transport> transports() { return table; }

}  // namespace cuvet::image
