#pragma once
// The scan's LayerMemo over the layer fact cache: a layer known by its diff_id
// and blob digest gives its listing to the scan and its file facts to the
// collector, and is never read; a layer read in full is stored. Only layers
// whose bytes were verified are ever stored or recalled, so an entry always
// holds the facts of exactly the blob its key names. Behind the local cache
// may stand a shared tier (a fleet's fact store): asked on a local miss, its
// facts are kept locally too, and every layer read is shared.
#include <functional>

#include "cuvet/cache/shared_facts.hpp"
#include "cuvet/cache/store.hpp"
#include "cuvet/image/image.hpp"
#include "scan/scan_collector.hpp"

namespace cuvet::scan {

class FactMemo final : public image::LayerMemo {
public:
    // `extra` is true for a file this analysis selects beyond the default
    // selection: cached facts lack it, and a layer holding one is read whole.
    // Either tier may be null (--no-cache with a fact store), not both.
    FactMemo(cache::Store* store, cache::SharedFacts* shared, ScanCollector& collector,
             std::function<bool(const image::FileEntry&)> extra)
        : store_(store), shared_(shared), collector_(collector), extra_(std::move(extra)) {}

    std::optional<image::LayerListing> recall(const image::LayerId& layer) override;
    void remember(const image::LayerId& layer, const image::LayerListing& listing) override;

private:
    bool has_extra(const image::LayerListing& listing) const;
    std::optional<cache::LayerFacts> load(const cache::Key& key);

    cache::Store* store_;
    cache::SharedFacts* shared_;
    ScanCollector& collector_;
    std::function<bool(const image::FileEntry&)> extra_;
};

}  // namespace cuvet::scan
