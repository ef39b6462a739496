#pragma once
// Writes real container images for tests, the bundled sample and benchmarks:
// docker-save tarballs (legacy "<id>/layer.tar" and Docker 25+ "blobs/sha256"
// layouts, several images per archive), OCI image layouts as a directory or a
// tar (nested and multi-platform indexes), with real sha256 digests and sizes.
//
// An image is first built as a set of files in memory (ImageFiles) and only
// then written out, so a test can break exactly one thing — a digest, a blob,
// a manifest path — before it reaches the disk.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "support/tar_writer.hpp"

namespace cuvet::test {

struct Layer {
    std::vector<TarEntry> entries;
    Compression compression = Compression::gzip;
    std::string created_by;  // the history line that made the layer
    // History lines of instructions that made no layer (ENV, CMD…), placed
    // before this layer's own line, as docker writes them.
    std::vector<std::string> empty_history_before;
    // Declared media type; empty: the one that matches `compression`.
    std::string media_type;
    // Blob bytes used as they are instead of tar(entries) (not-a-tar layers,
    // hand-made truncations); its diff_id is then the sha256 of these bytes.
    std::optional<std::string> raw_blob;
};

struct ImageSpec {
    std::vector<Layer> layers;
    std::string os = "linux";
    std::string architecture = "amd64";
    std::string variant;
    std::vector<std::string> env{
        "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"};
    std::vector<std::string> entrypoint;
    std::vector<std::string> cmd;
    std::string working_dir;
    std::string user;
    std::map<std::string, std::string> labels;
    std::vector<std::string> repo_tags;  // docker: RepoTags; OCI: see OciEntry::ref_name
    std::string created = "2024-05-01T12:00:00Z";
};

struct Blob {
    std::string digest;  // "sha256:<hex>"
    std::string hex() const { return digest.substr(7); }
    std::string bytes;
    std::string media_type;
};

// The blobs of one image, with digests and sizes that agree with each other.
struct EncodedImage {
    Blob config;
    std::vector<Blob> layers;
    std::vector<std::string> diff_ids;  // "sha256:<hex>" of each uncompressed tar
    Blob manifest;                      // OCI image manifest
};
EncodedImage encode_image(const ImageSpec& spec);

// An image as the files it is made of, before it is written anywhere.
struct ImageFiles {
    std::map<std::string, std::string> files;  // relative path -> bytes
    std::set<std::string> directories;         // extra (empty) directories
    struct Parts {
        std::string manifest;  // docker: manifest.json; OCI: the manifest blob path
        std::string config;
        std::vector<std::string> layers;
    };
    std::vector<Parts> images;  // in the order they were given

    void write_dir(const std::filesystem::path& dir) const;
    void write_tar(const std::filesystem::path& tar_path,
                   Compression compression = Compression::none) const;

    // Hooks that break the image on purpose.
    void edit_json(const std::string& path, const std::function<void(nlohmann::json&)>& edit);
    void flip_byte(const std::string& path);  // one byte in the middle, size unchanged
    void truncate(const std::string& path, std::size_t keep);
    void remove(const std::string& path);
    // A directory where a file is expected.
    void replace_with_directory(const std::string& path);
};

enum class DockerLayout {
    legacy,  // "<id>/layer.tar", "<id>/json", "<config hex>.json" (docker < 25)
    blobs,   // "blobs/sha256/<hex>" with oci-layout and index.json beside manifest.json
};
ImageFiles docker_archive(const std::vector<ImageSpec>& images,
                          DockerLayout layout = DockerLayout::blobs);

// One descriptor of an OCI index: an image manifest, or a nested index.
struct OciEntry {
    std::optional<ImageSpec> image;
    std::vector<OciEntry> children;  // used when image is empty: a nested index
    std::string ref_name;            // org.opencontainers.image.ref.name, if any
    bool with_platform = true;       // write the descriptor's "platform" (images only)
};
OciEntry oci_image(ImageSpec spec, std::string ref_name = "", bool with_platform = true);
OciEntry oci_index(std::vector<OciEntry> children, std::string ref_name = "");
ImageFiles oci_layout(const std::vector<OciEntry>& top_level);

// Materialises entries as a plain directory tree (the rootfs input format).
void write_rootfs(const std::filesystem::path& root, const std::vector<TarEntry>& entries);

}  // namespace cuvet::test
