#pragma once
// What all layers of one image may hold together. Each layer's names are
// capped (path-bytes), but an image lists many layers, and every layer's
// entries are held until the layers are applied in order: 100 layers of
// 250 MB of names, or one listing of 30 million one-letter names, cost
// gigabytes. So the entries and their name bytes are counted across the
// whole image as they are read, by every layer worker at once, and a
// manifest's layer count is capped before any layer is opened.
#include <atomic>
#include <cstdint>
#include <string>

namespace cuvet::image {

struct LayerContents;

class ImageBudget {
public:
    // Entries (whiteouts included) and bytes of names and link targets read
    // from `layer`. Throws LimitExceeded (naming the layer) past `entries` or
    // `image-path-bytes`.
    void charge(std::uint64_t entries, std::uint64_t path_bytes, const std::string& layer);
    // A layer that was not read but is held all the same (recalled from the
    // layer cache, or the same blob listed twice).
    void charge_layer(const LayerContents& contents);

private:
    std::atomic<std::uint64_t> entries_{0};
    std::atomic<std::uint64_t> path_bytes_{0};
};

// Throws LimitExceeded naming `image` when it lists more than `layers` layers.
void check_layer_count(std::size_t count, const std::string& image);

}  // namespace cuvet::image
