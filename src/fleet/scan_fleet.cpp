// One worker of a fleet scan: resolve, take the shard, skip what is done, check the rest
// (docs/fleet.md). Images of one base are checked one after another, so the layer cache reads
// a shared base once for all of them.
#include <algorithm>
#include <chrono>
#include <set>
#include <sstream>
#include <thread>

#include "base_owners.hpp"
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
    if (options.fact_store) options.fact_store->take_shared();  // an earlier image's, if it failed
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
    if (options.fact_store) outcome.layers_read = options.fact_store->take_shared();
    outcome.seconds = seconds_since(start);
    return outcome;
}

// This shard's images, those of one base together, owned bases before borrowed ones.
ShareOrder shard_share(std::vector<FleetImage> images, const Shard& shard) {
    std::vector<ShardItem> items;
    for (const auto& image : images) items.push_back({image.key, image.base});
    const auto shard_of = assign_shards(items, shard.count);
    return order_share(std::move(images), shard_of, shard.index);
}

// Before the first image of a base another shard owns: wait until that shard has shared the
// base's layers, so this worker takes their facts instead of reading them too. The owner may be
// slow, dead or done long ago; past the wait, this worker reads the base itself.
void wait_for_base(const ShareOrder::Borrowed& borrowed, const std::string& base,
                   const ScanOptions& options) {
    const auto start = Clock::now();
    std::size_t ready = 0;
    while (ready < borrowed.diff_ids.size() && seconds_since(start) < options.fact_wait_seconds) {
        if (options.fact_store->has(borrowed.diff_ids[ready])) {
            ++ready;
            continue;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    if (!options.on_note) return;
    std::ostringstream note;
    note << "base " << base.substr(0, 19) << " of shard " << borrowed.owner << "/"
         << options.shard.count << ": " << ready << " of " << borrowed.diff_ids.size()
         << " layers in the fact store after " << static_cast<int>(seconds_since(start)) << " s";
    if (ready < borrowed.diff_ids.size()) note << "; reading the rest here";
    options.on_note(note.str());
}

// Once per borrowed base, before its first image here (with a fact store only).
void await_borrowed_base(const ShareOrder& order, const FleetImage& image,
                         const ScanOptions& options, std::set<std::string>& waited) {
    if (!options.fact_store) return;
    const auto borrowed = order.borrowed.find(image.base);
    if (borrowed != order.borrowed.end() && waited.insert(image.base).second)
        wait_for_base(borrowed->second, image.base, options);
}

}  // namespace

ScanTotals scan_fleet(const std::vector<std::string>& references, const ScanOptions& options,
                      const rules::Database& db, const config::Config& config) {
    const auto start = Clock::now();
    const ResultStore store(options.out_dir);
    auto images = resolve_images(references, options.validate.open, options.on_unreadable);
    ScanTotals totals;
    totals.images = images.size();
    const ShareOrder order = shard_share(std::move(images), options.shard);
    const auto& share = order.images;
    std::set<std::string> waited;
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
                    await_borrowed_base(order, image, options, waited);
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
