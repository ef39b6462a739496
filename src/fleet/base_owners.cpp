#include "base_owners.hpp"

#include <algorithm>
#include <tuple>

namespace cuvet::fleet {
namespace {

// The layers every readable image of a base starts with (at least the base layer itself).
std::vector<std::string> common_prefix(const std::vector<const FleetImage*>& members) {
    std::vector<std::string> common;
    bool first = true;
    for (const FleetImage* image : members) {
        if (!image->error.empty() || image->diff_ids.empty()) continue;
        if (first) {
            common = image->diff_ids;
            first = false;
            continue;
        }
        const auto mismatch = std::mismatch(common.begin(), common.end(), image->diff_ids.begin(),
                                            image->diff_ids.end());
        common.erase(mismatch.first, common.end());
    }
    return common;
}

}  // namespace

ShareOrder order_share(std::vector<FleetImage> images, const std::vector<unsigned>& shard_of,
                       unsigned shard) {
    // The first piece of a base holds its smallest keys (assign_shards cuts in key order).
    std::map<std::string, std::pair<std::string, unsigned>> owner_of;  // base -> (key, shard)
    std::map<std::string, std::vector<const FleetImage*>> members;
    for (std::size_t i = 0; i < images.size(); ++i) {
        auto [it, added] = owner_of.emplace(images[i].base, std::pair{images[i].key, shard_of[i]});
        if (!added && images[i].key < it->second.first) it->second = {images[i].key, shard_of[i]};
        members[images[i].base].push_back(&images[i]);
    }
    ShareOrder order;
    for (std::size_t i = 0; i < images.size(); ++i) {
        if (shard_of[i] != shard) continue;
        const unsigned owner = owner_of[images[i].base].second;
        if (owner != shard && !order.borrowed.count(images[i].base))
            order.borrowed[images[i].base] = {owner, common_prefix(members[images[i].base])};
    }
    for (std::size_t i = 0; i < images.size(); ++i)
        if (shard_of[i] == shard) order.images.push_back(std::move(images[i]));
    const auto rank = [&](const FleetImage& image) {
        return std::make_tuple(order.borrowed.count(image.base) != 0, std::cref(image.base),
                               std::cref(image.key));
    };
    std::sort(order.images.begin(), order.images.end(),
              [&](const FleetImage& a, const FleetImage& b) { return rank(a) < rank(b); });
    return order;
}

}  // namespace cuvet::fleet
