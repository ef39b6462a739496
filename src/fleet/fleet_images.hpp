#pragma once
// The fleet's references resolved to images: the digest that names the result, the base layer
// that picks the shard, and every reference that named it.
#include <functional>
#include <string>
#include <vector>

#include "cuvet/image/image.hpp"

namespace cuvet::fleet {

struct FleetImage {
    // The result's key, "sha256:…": the manifest digest; for an image without one (a rootfs
    // folder) the config digest; for a reference that could not be opened, the sha256 of it.
    std::string key;
    std::string digest;  // the manifest digest; "" when unknown
    std::vector<std::string> references;
    std::string base;  // the first layer's digest (its diff_id when the blob's is unknown)
    std::vector<std::string> diff_ids;  // the layers', from the config
    std::string error;                  // why the reference could not be opened; "" when it was
};

// Opens each reference for its manifest and config only (no layer is read); references of one
// digest become one image. In first-seen order. `on_unreadable` hears each error line.
std::vector<FleetImage> resolve_images(
    const std::vector<std::string>& references, const image::OpenOptions& open,
    const std::function<void(const std::string&)>& on_unreadable);

}  // namespace cuvet::fleet
