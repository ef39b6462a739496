#pragma once
// Opening an image on disk (docker-save tarball, OCI layout dir or tar, rootfs
// dir) and scanning its layers into a FileTree.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cuvet/image/file_tree.hpp"

namespace cuvet::image {

struct Platform {
    std::string os = "linux";
    std::string architecture = "amd64";
    std::string variant;

    static Platform parse(std::string_view text);  // "linux/arm64/v8"
    std::string str() const;
    bool matches(const Platform& wanted) const;
};

struct HistoryEntry {
    std::string created;
    std::string created_by;
    std::string comment;
    bool empty_layer = false;
};

struct ImageConfig {
    Platform platform;
    std::vector<std::string> env;  // "KEY=value", as in the config
    std::vector<std::string> entrypoint;
    std::vector<std::string> cmd;
    std::string working_dir;
    std::string user;
    std::string created;
    std::map<std::string, std::string> labels;
    std::vector<HistoryEntry> history;
    std::vector<std::string> diff_ids;

    std::optional<std::string> env_value(std::string_view key) const;
};

struct LayerInfo {
    std::string blob;        // where it lives ("blobs/sha256/…", "<id>/layer.tar", rootfs path)
    std::string digest;      // "sha256:…" of the blob, when known
    std::string media_type;  // as declared; never trusted for decompression
    std::uint64_t size = 0;  // bytes of the blob
    std::string created_by;  // the history line that made it, when known
};

struct ImageInfo {
    std::string format;  // "docker-archive", "oci-layout", "oci-archive", "rootfs"
    std::string path;
    std::string reference;  // repo:tag or ref.name, when known
    std::string manifest_digest;
    std::string config_digest;
    ImageConfig config;
    std::vector<LayerInfo> layers;
    std::vector<std::string> other_images;  // further images in the same archive
};

// How to reach an image that is not a file: credentials and TLS policy for
// registries (docker://…). Without credentials a registry is asked with what
// docker's config.json (or podman's auth.json) holds, or anonymously.
struct Access {
    std::string username;  // --username; the password from --password-stdin
    std::string password;
    bool insecure = false;  // --insecure: plain HTTP, or TLS without verification
    // --timeout: seconds one HTTP request may take, headers and body together
    // (a registry trickling bytes is an error, not a wait); 0: no limit.
    unsigned timeout_seconds = 900;
    // --cross-host-auth: credentials also go to a token realm on another host
    // (docs/registries.md, "Token realms on another host").
    bool cross_host_auth = false;
};

struct OpenOptions {
    std::string image;                 // --image repo:tag (several images in one archive)
    std::optional<Platform> platform;  // --platform; default linux/amd64
    bool verify_digests = true;        // --no-verify turns this off
    Access access;                     // registries only
    // --allow-partial (rootfs dirs): an unreadable directory or file is listed
    // in FileTree::unreadable() instead of ending the scan with an error.
    bool allow_partial = false;
    // Registries only: blobs read whole are kept on disk (a temporary directory the image removes)
    // so that scanning the open image again does not fetch them again (validate --probe).
    bool keep_fetched_blobs = false;
};

// Receives one selected file block by block, in order, as its layer streams
// by (an alternative to on_content that never needs the whole file at once).
class ContentSink {
public:
    virtual ~ContentSink() = default;
    // The next bytes of the file at `offset` (never before the previous block's end).
    virtual void write(std::string_view block, std::uint64_t offset) = 0;
    // The file is complete.
    virtual void finish() = 0;
};

// A layer as the scan reads it, without file contents: what a layer cache keeps.
struct LayerListing {
    std::vector<FileEntry> entries;        // in archive order, paths as the tar names them
    std::vector<std::string> whiteouts;    // paths removed from lower layers
    std::vector<std::string> opaque_dirs;  // directories whose lower contents vanish
};

struct LayerId {
    std::size_t index = 0;    // bottom layer is 0
    std::string diff_id;      // "sha256:…" of the uncompressed tar, from the config
    std::string blob_digest;  // "sha256:…" of the blob, when known
    // The bytes read were checked against blob_digest (or diff_id when no
    // blob digest is known); false with --no-verify.
    bool verified = false;
};

// Lets the scan skip layers seen before (the layer fact cache). Both calls
// come from worker threads, one layer each.
class LayerMemo {
public:
    virtual ~LayerMemo() = default;
    // Asked before the layer's blob is opened: its listing when the memo knows
    // the layer, in which case the memo has handed the facts of its selected
    // files to whoever wants them, and the blob is never read.
    virtual std::optional<LayerListing> recall(const LayerId& layer) = 0;
    // A layer that was read: its listing, once all its selected files were handed on.
    virtual void remember(const LayerId& layer, const LayerListing& listing) = 0;
};

struct ScanOptions {
    // Files whose bytes the caller wants, decided from the header alone.
    std::function<bool(const FileEntry&)> select;
    // Called for every selected file with its whole content, possibly from
    // several worker threads at once. Files of lower layers that a later
    // layer replaces are visited too: match them on (path, layer). Without a
    // callback the bytes are kept in the FileTree instead.
    std::function<void(const FileEntry&, std::string_view bytes)> on_content;
    // Preferred over on_content when set: a sink per selected file (from
    // worker threads), or null to fall back to on_content for that file.
    std::function<std::unique_ptr<ContentSink>(const FileEntry&)> open_sink;
    unsigned workers = 0;  // 0: one per core
    // Called after each layer is read (layers done, layers total); from worker threads.
    std::function<void(std::size_t, std::size_t)> on_progress;
    // Layers known before are not read (only with open_sink/on_content: a
    // recalled layer carries no bytes). Null: every layer is read.
    LayerMemo* memo = nullptr;
};

class Image {
public:
    virtual ~Image() = default;
    virtual const ImageInfo& info() const = 0;
    virtual FileTree scan(const ScanOptions& options) const = 0;
};

// Throws cuvet::Error (input/io) with one line naming the file on bad input.
std::unique_ptr<Image> open_image(const std::filesystem::path& path, const OpenOptions& options);

}  // namespace cuvet::image
