#pragma once
// A layer's facts as one self-contained, authenticated entry, for stores the
// local cache's directory checks cannot protect (a fleet's fact store in a
// registry, docs/fleet.md): the entry carries what it claims to describe (the
// diff_id, cache::format_version, the cuvet version) and ends with
// HMAC-SHA256 under a key the store's writers share and its host does not
// hold. Anyone who can push to the registry can still replace an entry, but
// never with one that opens under the key for another layer.
#include <optional>
#include <string>
#include <string_view>

#include "cuvet/cache/layer_facts.hpp"

namespace cuvet::cache {

std::string seal_facts(std::string_view key, const std::string& diff_id, const LayerFacts& facts);

struct UnsealedFacts {
    std::optional<LayerFacts> facts;
    std::string refused;  // why `facts` is empty: "not sealed with the fleet key", …
};

// The facts of an entry sealed under `key` for exactly `diff_id` by this format
// and cuvet version; otherwise no facts and one phrase saying why. Never throws.
UnsealedFacts unseal_facts(std::string_view key, const std::string& diff_id,
                           std::string_view entry);

}  // namespace cuvet::cache
