#pragma once
// Who reads a shared base first. A base whose images are cut over several shards (more than a
// fair share) is owned by the shard of its first piece; the others borrow it: they check their
// own bases first and, before their first image of a borrowed base, wait for the owner's facts
// of the base's layers in the fact store, so that the fleet reads each layer once.
#include <map>
#include <string>
#include <vector>

#include "fleet_images.hpp"

namespace cuvet::fleet {

struct ShareOrder {
    std::vector<FleetImage> images;  // this shard's: owned bases first, then borrowed ones
    // Per borrowed base: the owner's shard index and the layers all its images share.
    struct Borrowed {
        unsigned owner = 0;
        std::vector<std::string> diff_ids;
    };
    std::map<std::string, Borrowed> borrowed;
};

// `shard_of` is assign_shards' answer for `images`, in the same order.
ShareOrder order_share(std::vector<FleetImage> images, const std::vector<unsigned>& shard_of,
                       unsigned shard);

}  // namespace cuvet::fleet
