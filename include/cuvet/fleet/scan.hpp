#pragma once
// `cuvet fleet scan` as a library call: resolve every reference to its image digest and base
// layer, take this worker's shard, and for each image not yet done run what `cuvet validate`
// runs, then once more per node pool (the image read once), and write one result per digest
// (docs/fleet.md).
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "cuvet/config/config.hpp"
#include "cuvet/fleet/fact_store.hpp"
#include "cuvet/fleet/shard.hpp"
#include "cuvet/report/renderer.hpp"
#include "cuvet/rules/database.hpp"
#include "cuvet/validate/validate.hpp"

namespace cuvet::fleet {

// What a worker says as it goes (the CLI prints it as progress lines on stderr).
struct ImageEvent {
    std::size_t position = 0;  // 1-based, of `of` images of this shard
    std::size_t of = 0;
    std::string reference;
    // "skipped" (a result exists), "error" (unreadable), or the verdict: pass, warn, fail.
    std::string status;
    std::string error;
    std::uint64_t bytes_inflated = 0;
    double seconds = 0;
};

struct ScanOptions {
    // What validate is given: open options, targets (with the --nodes pools), workers, the
    // layer cache. Images are read one after another, each with all the workers.
    validate::Options validate;
    report::ReportContext context;  // the header of each validate JSON; targets are filled in
    Shard shard;
    std::filesystem::path out_dir;
    // The fleet's fact store (also validate.shared_facts), or null. With it, a worker waits up
    // to `fact_wait_seconds` before its first image of a base another shard owns, for that
    // shard's facts of the base (docs/fleet.md, "One fact store"); then it reads the base itself.
    RegistryFactStore* fact_store = nullptr;
    double fact_wait_seconds = 300;
    // One line about the fact store: a wait for another shard's base, and how it ended.
    std::function<void(const std::string&)> on_note;
    // The shard's size once the fleet is resolved (images of the fleet, of this shard).
    std::function<void(std::size_t, std::size_t)> on_share;
    std::function<void(const ImageEvent&)> on_image;
    // A reference that could not be opened (also recorded as an error result).
    std::function<void(const std::string&)> on_unreadable;
};

struct ScanTotals {
    std::size_t images = 0;        // distinct images of the fleet
    std::size_t assigned = 0;      // of them, this shard's
    std::size_t already_done = 0;  // with a result from an earlier run: skipped
    std::size_t checked = 0;       // checked now (unreadable ones included)
    std::size_t unreadable = 0;    // checked now, with an error result
    std::uint64_t bytes_inflated = 0;
    double seconds = 0;
};

// Throws cuvet::Error(usage) as validate does (an unknown --gpu) and Error(io) when a result
// cannot be written; an image that cannot be read is an error result, not an exception.
ScanTotals scan_fleet(const std::vector<std::string>& references, const ScanOptions& options,
                      const rules::Database& db, const config::Config& config);

}  // namespace cuvet::fleet
