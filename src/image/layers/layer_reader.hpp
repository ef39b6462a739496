#pragma once
// Reads one layer blob as a stream: decompress by magic, parse the tar with
// libarchive, record entries and whiteouts, hand selected files' bytes on.
#include <memory>
#include <string>
#include <vector>

#include "cuvet/image/image.hpp"
#include "image/layers/decompress.hpp"
#include "image/storage/byte_source.hpp"

namespace cuvet::image {

struct LayerEntry {
    FileEntry entry;
    std::shared_ptr<const std::string> content;  // only when kept for the tree
};

struct LayerContents {
    std::string name;                      // the blob, for messages
    int index = 0;                         // its place in the image, bottom layer 0
    std::vector<LayerEntry> entries;       // in archive order
    std::vector<std::string> whiteouts;    // paths removed from lower layers
    std::vector<std::string> opaque_dirs;  // directories whose lower contents vanish
    Compression compression = Compression::none;
    std::uint64_t tar_bytes = 0;  // decompressed size
};

// What the blob must hash to: the digest of the blob itself (OCI, new docker
// save) or of the uncompressed tar (a legacy layer.tar checked against diff_ids).
struct LayerCheck {
    std::string blob_digest;
    std::string diff_id;
};

class ImageBudget;

// `budget`, when given, is charged every entry as it is read (shared by the
// image's layers; see image_budget.hpp).
LayerContents read_layer(std::unique_ptr<ByteSource> blob, const std::string& name, int layer_index,
                         const LayerCheck& check, const ScanOptions& options,
                         ImageBudget* budget = nullptr);

}  // namespace cuvet::image
