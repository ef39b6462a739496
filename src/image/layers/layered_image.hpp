#pragma once
// The part every layered format shares once its manifest is understood:
// read the layers in parallel (one worker per core, each layer read once),
// then apply them in order.
#include <memory>
#include <vector>

#include "cuvet/image/image.hpp"
#include "image/layers/image_budget.hpp"
#include "image/layers/layer_reader.hpp"
#include "image/storage/blob_store.hpp"

namespace cuvet::image {

class LayeredImage : public Image {
public:
    LayeredImage(std::unique_ptr<BlobStore> store, ImageInfo info, std::vector<LayerCheck> checks);
    const ImageInfo& info() const override { return info_; }
    FileTree scan(const ScanOptions& options) const override;

private:
    LayerContents read_or_recall(std::size_t layer, const ScanOptions& options,
                                 ImageBudget& budget) const;

    std::unique_ptr<BlobStore> store_;
    ImageInfo info_;
    std::vector<LayerCheck> checks_;
};

}  // namespace cuvet::image
