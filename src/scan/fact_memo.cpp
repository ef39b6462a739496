#include "scan/fact_memo.hpp"

#include <algorithm>

namespace cuvet::scan {
namespace {

std::optional<cache::Key> key_of(const image::LayerId& layer) {
    // Unverified bytes (--no-verify) could be anything: never stored, never stood in for.
    if (!layer.verified || layer.diff_id.rfind("sha256:", 0) != 0) return std::nullopt;
    return cache::Key{layer.diff_id, layer.blob_digest};
}

}  // namespace

bool FactMemo::has_extra(const image::LayerListing& listing) const {
    return extra_ && std::any_of(listing.entries.begin(), listing.entries.end(), extra_);
}

std::optional<cache::LayerFacts> FactMemo::load(const cache::Key& key) {
    if (store_)
        if (auto facts = store_->load(key)) return facts;
    if (!shared_) return std::nullopt;
    auto facts = shared_->load(key.diff_id);
    // Kept here too: the next image of this base does not ask the registry again.
    if (facts && store_) store_->save(key, *facts);
    return facts;
}

std::optional<image::LayerListing> FactMemo::recall(const image::LayerId& layer) {
    auto key = key_of(layer);
    if (!key) return std::nullopt;
    auto facts = load(*key);
    if (!facts || has_extra(facts->listing)) return std::nullopt;
    image::LayerListing listing = std::move(facts->listing);
    collector_.adopt(static_cast<int>(layer.index), std::move(*facts));
    return listing;
}

void FactMemo::remember(const image::LayerId& layer, const image::LayerListing& listing) {
    auto key = key_of(layer);
    if (!key || has_extra(listing)) return;
    cache::LayerFacts& facts = collector_.layer(static_cast<int>(layer.index));
    facts.listing = listing;
    if (store_) store_->save(*key, facts);
    if (shared_) shared_->save(key->diff_id, facts);
    facts.listing = {};
}

}  // namespace cuvet::scan
