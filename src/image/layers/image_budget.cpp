#include "image/layers/image_budget.hpp"

#include "cuvet/core/scan_limits.hpp"
#include "image/layers/layer_reader.hpp"

namespace cuvet::image {
namespace {

void check_totals(std::uint64_t entries, std::uint64_t path_bytes, const std::string& where) {
    const ScanLimits& limits = scan_limits();
    if (entries > limits.entries)
        throw LimitExceeded(
            "more than " + std::to_string(limits.entries) + " entries across the image's layers",
            "entries")
            .with_file(where);
    if (path_bytes > limits.image_path_bytes)
        throw LimitExceeded("more than " + std::to_string(limits.image_path_bytes) +
                                " bytes of entry names and link targets across the image's layers",
                            "image-path-bytes")
            .with_file(where);
}

}  // namespace

void ImageBudget::charge(std::uint64_t entries, std::uint64_t path_bytes,
                         const std::string& layer) {
    check_totals(entries_.fetch_add(entries) + entries,
                 path_bytes_.fetch_add(path_bytes) + path_bytes, layer);
}

void ImageBudget::charge_layer(const LayerContents& contents) {
    std::uint64_t bytes = 0;
    for (const auto& item : contents.entries)
        bytes += item.entry.path.size() + item.entry.link_target.size();
    for (const auto& path : contents.whiteouts) bytes += path.size();
    charge(contents.entries.size() + contents.whiteouts.size(), bytes, contents.name);
}

void check_layer_count(std::size_t count, const std::string& image) {
    if (count > scan_limits().layers)
        throw LimitExceeded("lists " + std::to_string(count) + " layers, more than " +
                                std::to_string(scan_limits().layers),
                            "layers")
            .with_file(image);
}

}  // namespace cuvet::image
