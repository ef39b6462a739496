#include "image/layers/layered_image.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <numeric>
#include <optional>
#include <thread>

#include "image/layers/image_budget.hpp"
#include "image/layers/layer_applier.hpp"
#include "image/layers/layer_listing.hpp"

namespace cuvet::image {

LayeredImage::LayeredImage(std::unique_ptr<BlobStore> store, ImageInfo info,
                           std::vector<LayerCheck> checks)
    : store_(std::move(store)), info_(std::move(info)), checks_(std::move(checks)) {
    check_layer_count(info_.layers.size(), info_.path);
}

LayerContents LayeredImage::read_or_recall(std::size_t layer, const ScanOptions& options,
                                           ImageBudget& budget) const {
    const LayerInfo& info = info_.layers[layer];
    const std::string name = store_->describe(info.blob);
    const int index = static_cast<int>(layer);
    // A memo may only stand in for a layer whose bytes it never has to give.
    const bool memo = options.memo && (options.open_sink || options.on_content);
    LayerId id;
    if (memo) {
        id.index = layer;
        if (layer < info_.config.diff_ids.size()) id.diff_id = info_.config.diff_ids[layer];
        id.blob_digest = info.digest;
        id.verified = !checks_[layer].blob_digest.empty() || !checks_[layer].diff_id.empty();
        // Checked before the blob is opened: a remote blob is then never fetched.
        if (auto listing = options.memo->recall(id)) {
            LayerContents recalled = contents_of(std::move(*listing), name, index);
            budget.charge_layer(recalled);
            return recalled;
        }
    }
    LayerContents contents =
        read_layer(store_->open(info.blob), name, index, checks_[layer], options, &budget);
    if (memo) options.memo->remember(id, listing_of(contents));
    return contents;
}

FileTree LayeredImage::scan(const ScanOptions& options) const {
    const std::size_t count = info_.layers.size();
    // Largest layers first: with one worker per core the big layer starts at
    // once instead of being the straggler at the end.
    std::vector<std::size_t> order(count);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return info_.layers[a].size > info_.layers[b].size;
    });

    std::vector<std::optional<LayerContents>> results(count);
    std::atomic<std::size_t> next{0}, done{0};
    std::atomic<bool> failed{false};
    std::exception_ptr first_error;
    std::mutex error_mutex;
    ImageBudget budget;

    auto worker = [&] {
        while (!failed) {
            std::size_t slot = next++;
            if (slot >= count) return;
            std::size_t layer = order[slot];
            try {
                results[layer] = read_or_recall(layer, options, budget);
                std::size_t finished = ++done;
                if (options.on_progress) options.on_progress(finished, count);
            } catch (...) {
                std::lock_guard lock(error_mutex);
                if (!first_error) first_error = std::current_exception();
                failed = true;
            }
        }
    };

    unsigned workers =
        options.workers ? options.workers : std::max(1u, std::thread::hardware_concurrency());
    workers =
        static_cast<unsigned>(std::min<std::size_t>(workers, std::max<std::size_t>(count, 1)));
    std::vector<std::thread> threads;
    for (unsigned i = 1; i < workers; ++i) threads.emplace_back(worker);
    worker();
    for (auto& thread : threads) thread.join();
    if (first_error) std::rethrow_exception(first_error);

    FileTree tree;
    for (auto& layer : results) apply_layer(tree, std::move(*layer));
    return tree;
}

}  // namespace cuvet::image
