#pragma once
// One image's result file (docs/fleet.md, "Results"): the validate JSON, the references that
// named the image, its verdict overall and on each node pool, and what reading it cost.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cuvet/report/finding.hpp"
#include "cuvet/stack/stack.hpp"
#include "fleet_images.hpp"

namespace cuvet::fleet {

// "fail" (an error finding), "warn" (a warning), else "pass".
std::string verdict_of(const std::vector<report::Finding>& findings);

struct PoolVerdict {
    const stack::NodePool* pool = nullptr;
    std::vector<report::Finding> findings;  // judged with the pool's driver and GPU alone
};

struct ImageOutcome {
    nlohmann::json report;  // the validate JSON (schema cuvet-report)
    std::string verdict;
    std::vector<PoolVerdict> pools;
    std::uint64_t image_bytes = 0;  // the layers' blob sizes; 0 when unknown
    std::uint64_t bytes_inflated = 0;
    // The diff_ids of the layers this check read and shared with the fact store (none known
    // without a store: null in the result).
    std::optional<std::vector<std::string>> layers_read;
    double seconds = 0;
};

// The result of a checked image.
nlohmann::json image_result(const FleetImage& image, const std::string& shard,
                            const ImageOutcome& outcome);
// The result of an image that could not be read: verdict "error" and why.
nlohmann::json error_result(const FleetImage& image, const std::string& shard,
                            const std::string& error);

}  // namespace cuvet::fleet
