#pragma once
// Which share of the fleet one worker checks (docs/fleet.md, "Shards"). Every worker is given
// the same image list and computes the same assignment, so no scheduler is needed: a
// Kubernetes Indexed Job, a CI matrix or a shell loop starts the workers.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cuvet::fleet {

struct Shard {
    unsigned index = 0;  // 0-based, as JOB_COMPLETION_INDEX counts
    unsigned count = 1;
    std::string str() const { return std::to_string(index) + "/" + std::to_string(count); }
};

// "I/N" with 0 <= I < N. Throws cuvet::Error(usage) naming `option` otherwise.
Shard parse_shard(std::string_view text, const std::string& option = "--shard");
// The index from a Kubernetes Indexed Job's JOB_COMPLETION_INDEX (`index_text`) and the count
// given beside it (the Job's completions, which Kubernetes does not put in the environment).
Shard shard_from_index(std::string_view index_text, unsigned count);

// What the assignment needs of an image: a key (its digest) and its base (first layer digest).
struct ShardItem {
    std::string key;
    std::string base;
};

// The shard of each item, in the items' order. Images of one base stay on one shard unless
// the base alone holds more than a fair share (ceil(items / count)): then it is cut into
// fair-share pieces, in key order. Pieces go, largest first (ties by base), to the shard with
// the fewest images so far (ties: the lowest index). Deterministic in the set of items.
std::vector<unsigned> assign_shards(const std::vector<ShardItem>& items, unsigned count);

}  // namespace cuvet::fleet
