#pragma once
// The scan's LayerMemo over the layer fact cache: a layer known by its diff_id
// and blob digest gives its listing to the scan and its file facts to the
// collector, and is never read; a layer read in full is stored. Only layers
// whose bytes were verified are ever stored or recalled, so an entry always
// holds the facts of exactly the blob its key names.
#include <functional>

#include "cuvet/cache/store.hpp"
#include "cuvet/image/image.hpp"
#include "scan/scan_collector.hpp"

namespace cuvet::scan {

class FactMemo final : public image::LayerMemo {
public:
    // `extra` is true for a file this analysis selects beyond the default
    // selection: cached facts lack it, and a layer holding one is read whole.
    FactMemo(cache::Store& store, ScanCollector& collector,
             std::function<bool(const image::FileEntry&)> extra)
        : store_(store), collector_(collector), extra_(std::move(extra)) {}

    std::optional<image::LayerListing> recall(const image::LayerId& layer) override;
    void remember(const image::LayerId& layer, const image::LayerListing& listing) override;

private:
    bool has_extra(const image::LayerListing& listing) const;

    cache::Store& store_;
    ScanCollector& collector_;
    std::function<bool(const image::FileEntry&)> extra_;
};

}  // namespace cuvet::scan
