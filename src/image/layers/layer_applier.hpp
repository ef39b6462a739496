#pragma once
// Applies a layer on top of the tree, exactly as the OCI image spec's
// "Applying Changesets" says: whiteouts and opaque markers hide lower layers
// only, then the layer's own entries are added.
#include "cuvet/image/file_tree.hpp"
#include "image/layers/layer_reader.hpp"

namespace cuvet::image {

void apply_layer(FileTree& tree, LayerContents&& layer);

}  // namespace cuvet::image
