#include "image/layers/layer_listing.hpp"

namespace cuvet::image {

LayerListing listing_of(const LayerContents& contents) {
    LayerListing listing;
    listing.entries.reserve(contents.entries.size());
    for (const auto& item : contents.entries) listing.entries.push_back(item.entry);
    listing.whiteouts = contents.whiteouts;
    listing.opaque_dirs = contents.opaque_dirs;
    return listing;
}

LayerContents contents_of(LayerListing&& listing, std::string name, int layer) {
    LayerContents contents;
    contents.name = std::move(name);
    contents.index = layer;
    contents.entries.reserve(listing.entries.size());
    for (auto& entry : listing.entries) {
        entry.layer = layer;
        contents.entries.push_back({std::move(entry), nullptr});
    }
    contents.whiteouts = std::move(listing.whiteouts);
    contents.opaque_dirs = std::move(listing.opaque_dirs);
    return contents;
}

}  // namespace cuvet::image
