// One worker of a fleet scan: resolve, take the shard, skip what is done, check the rest
// (docs/fleet.md). Images of one base are checked one after another, so the layer cache reads
// a shared base once for all of them.
#include <algorithm>
#include <chrono>
#include <sstream>

#include "cuvet/core/error.hpp"
#include "cuvet/fleet/result_store.hpp"
#include "cuvet/fleet/scan.hpp"
#include "cuvet/image/read_counter.hpp"
#include "fleet_images.hpp"
#include "image_result.hpp"

namespace cuvet::fleet {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// What a pool stands for: its own driver and GPU, nothing else the fleet targets.
stack::Targets pool_targets(const stack::Targets& fleet, const stack::NodePool& pool) {
    stack::Targets targets;
    if (pool.driver) targets.drivers = {*pool.driver};
    if (!pool.gpu.empty()) targets.gpus = {pool.gpu};
    targets.trusted_dirs = fleet.trusted_dirs;
    targets.pools = {pool};
    targets.against = fleet.against;
    targets.against_exact = fleet.against_exact;
    return targets;
}

nlohmann::json validate_json(const validate::Result& result, const FleetImage& image,
                             report::ReportContext context) {
    context.targets = image.references;
    context.summary = result.summary;
    std::ostringstream rendered;
    report::make_renderer("json")->render(report::sorted_for_report(result.findings), context,
                                          rendered);
    return nlohmann::json::parse(rendered.str());
}

ImageOutcome check_image(const FleetImage& image, const ScanOptions& options,
                         const rules::Database& db, const config::Config& config) {
    const auto start = Clock::now();
    const std::uint64_t read_before = image::layer_bytes_read();
    ImageOutcome outcome;
    validate::Scan scanned = validate::scan(image.references.front(), options.validate, db);
    const validate::Result result = validate::judge(scanned, options.validate, db, config);
    outcome.report = validate_json(result, image, options.context);
    outcome.verdict = verdict_of(result.findings);
    for (const auto& layer : scanned.image->info().layers) outcome.image_bytes += layer.size;
    // The same scan judged again per pool: which pools the image cannot run on, and why.
    for (const auto& pool : options.validate.targets.pools) {
        scanned.stack.targets = pool_targets(options.validate.targets, pool);
        outcome.pools.push_back(
            {&pool, validate::judge(scanned, options.validate, db, config).findings});
    }
    outcome.bytes_inflated = image::layer_bytes_read() - read_before;
    outcome.seconds = seconds_since(start);
    return outcome;
}

// This shard's images, those of one base together, in a stable order.
std::vector<FleetImage> shard_share(std::vector<FleetImage> images, const Shard& shard) {
    std::vector<ShardItem> items;
    for (const auto& image : images) items.push_back({image.key, image.base});
    const auto shard_of = assign_shards(items, shard.count);
    std::vector<FleetImage> share;
    for (std::size_t i = 0; i < images.size(); ++i)
        if (shard_of[i] == shard.index) share.push_back(std::move(images[i]));
    std::sort(share.begin(), share.end(), [](const FleetImage& a, const FleetImage& b) {
        return std::tie(a.base, a.key) < std::tie(b.base, b.key);
    });
    return share;
}

}  // namespace

ScanTotals scan_fleet(const std::vector<std::string>& references, const ScanOptions& options,
                      const rules::Database& db, const config::Config& config) {
    const auto start = Clock::now();
    const ResultStore store(options.out_dir);
    auto images = resolve_images(references, options.validate.open, options.on_unreadable);
    ScanTotals totals;
    totals.images = images.size();
    const auto share = shard_share(std::move(images), options.shard);
    totals.assigned = share.size();
    if (options.on_share) options.on_share(totals.images, totals.assigned);
    const std::string shard = options.shard.str();
    ImageEvent event;
    event.of = share.size();
    for (const auto& image : share) {
        ++event.position;
        event.reference = image.references.front();
        event.error.clear();
        event.bytes_inflated = 0;
        event.seconds = 0;
        if (store.has(image.key)) {
            ++totals.already_done;
            event.status = "skipped";
        } else {
            ++totals.checked;
            event.status = "error";
            event.error = image.error;
            try {
                if (event.error.empty()) {
                    const ImageOutcome outcome = check_image(image, options, db, config);
                    store.write(image.key, image_result(image, shard, outcome));
                    event.status = outcome.verdict;
                    event.bytes_inflated = outcome.bytes_inflated;
                    event.seconds = outcome.seconds;
                }
            } catch (const Error& e) {
                // A usage error ends the run; one image that cannot be read does not.
                if (e.kind() == ErrorKind::usage) throw;
                event.error = e.what();
            }
            if (!event.error.empty()) {
                ++totals.unreadable;
                store.write(image.key, error_result(image, shard, event.error));
            }
            totals.bytes_inflated += event.bytes_inflated;
        }
        if (options.on_image) options.on_image(event);
    }
    totals.seconds = seconds_since(start);
    return totals;
}

}  // namespace cuvet::fleet
