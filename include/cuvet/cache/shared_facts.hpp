#pragma once
// A second tier of layer facts behind the local cache, shared by many machines (the fleet's
// fact store in a registry, docs/fleet.md). Keyed by the layer's diff_id alone: the facts are
// those of the uncompressed tar, whatever blob carried it. An implementation believes an
// entry only once it has authenticated it; anything else is a miss.
#include <optional>
#include <string>

#include "cuvet/cache/layer_facts.hpp"

namespace cuvet::cache {

class SharedFacts {
public:
    virtual ~SharedFacts() = default;
    // The facts of a layer some machine read before; nullopt when absent or not authentic.
    // Called from scan worker threads. Never throws.
    virtual std::optional<LayerFacts> load(const std::string& diff_id) = 0;
    // Shares the facts of a layer this machine has just read (its bytes verified). Failures
    // cost only speed elsewhere. Called from scan worker threads. Never throws.
    virtual void save(const std::string& diff_id, const LayerFacts& facts) = 0;
};

}  // namespace cuvet::cache
