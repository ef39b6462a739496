#pragma once
// A layer's contents and its listing (what a LayerMemo keeps) one into the
// other: every image kind that consults the memo shares these.
#include <string>

#include "cuvet/image/image.hpp"
#include "image/layers/layer_reader.hpp"

namespace cuvet::image {

LayerListing listing_of(const LayerContents& contents);
// A recalled layer as the scan's result: no bytes, entries renumbered to `layer`.
LayerContents contents_of(LayerListing&& listing, std::string name, int layer);

}  // namespace cuvet::image
