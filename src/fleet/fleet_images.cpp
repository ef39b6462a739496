// Resolving references before sharding: all workers resolve the same list the same way, so
// they agree on the shards without talking to each other.
#include "fleet_images.hpp"

#include <map>

#include "cuvet/core/error.hpp"
#include "image/storage/sha256.hpp"

namespace cuvet::fleet {

std::vector<FleetImage> resolve_images(
    const std::vector<std::string>& references, const image::OpenOptions& open,
    const std::function<void(const std::string&)>& on_unreadable) {
    std::vector<FleetImage> images;
    std::map<std::string, std::size_t> by_key;
    for (const auto& reference : references) {
        FleetImage found;
        try {
            const auto opened = image::open_image(reference, open);
            const image::ImageInfo& info = opened->info();
            found.digest = info.manifest_digest;
            found.diff_ids = info.config.diff_ids;
            found.key = !info.manifest_digest.empty() ? info.manifest_digest
                        : !info.config_digest.empty() ? info.config_digest
                                                      : image::sha256_digest(reference);
            if (!info.layers.empty() && !info.layers.front().digest.empty())
                found.base = info.layers.front().digest;
            else if (!info.config.diff_ids.empty())
                found.base = info.config.diff_ids.front();
        } catch (const Error& e) {
            if (e.kind() == ErrorKind::usage) throw;
            found.key = image::sha256_digest(reference);
            found.error = e.what();
            if (on_unreadable) on_unreadable(found.error);
        }
        if (found.base.empty()) found.base = found.key;  // an image of its own
        auto [it, added] = by_key.emplace(found.key, images.size());
        if (added) {
            found.references = {reference};
            images.push_back(std::move(found));
        } else {
            images[it->second].references.push_back(reference);
        }
    }
    return images;
}

}  // namespace cuvet::fleet
