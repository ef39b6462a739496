#pragma once
// Where an image's files (manifest.json, index.json, blobs, layer.tar) live:
// a directory, or an uncompressed outer tar indexed once by its headers.
// Paths are always relative to that root and can never leave it.
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "image/storage/byte_source.hpp"

namespace cuvet::image {

class BlobStore {
public:
    virtual ~BlobStore() = default;
    // nullopt when the file does not exist; throws when the path leaves the root.
    virtual std::optional<std::uint64_t> size(const std::string& path) const = 0;
    virtual std::unique_ptr<ByteSource> open(const std::string& path) const = 0;
    // "image.tar:blobs/sha256/ab…" for messages.
    virtual std::string describe(const std::string& path) const = 0;

    bool exists(const std::string& path) const { return size(path).has_value(); }
    // Small metadata files (JSON); capped so that a hostile size cannot exhaust memory.
    std::string read_small(const std::string& path) const;
};

std::unique_ptr<BlobStore> open_dir_store(const std::filesystem::path& root);
std::unique_ptr<BlobStore> open_tar_store(const std::filesystem::path& archive);

// Normalises a path found in a manifest; throws an input error naming `where`
// when it is absolute or climbs out of the layout.
std::string confined_path(const std::string& path, const std::string& where);

}  // namespace cuvet::image
