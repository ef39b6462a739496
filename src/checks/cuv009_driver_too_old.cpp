// CUV009 driver-too-old
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "check_util.hpp"
#include "checks.hpp"

namespace cuvet::checks {

namespace cuv009 {

// The newest CUDA release the driver runs without compat packages.
std::optional<rules::Version> newest_cuda_for(const rules::Database& db,
                                              const rules::Version& driver) {
    std::optional<rules::Version> best;
    for (const auto& e : db.driver_entries())
        if (e.min_driver && *e.min_driver <= driver && (!best || *best < e.cuda)) best = e.cuda;
    return best;
}

std::vector<report::Finding> run(const Stack& stack, const rules::Database& db) {
    std::vector<report::Finding> out;
    if (stack.targets.drivers.empty()) return out;
    const auto cuda = util::runtime_cuda(stack);
    if (!cuda) return out;
    const auto need = stack::driver_need(db, *cuda);
    if (!need) return out;
    const std::string cuda_text = cuda->major_only
                                      ? std::to_string(cuda->version.major()) + ".x (minor unknown)"
                                      : cuda->version.str();
    for (const auto& driver : stack.targets.drivers) {
        if (driver >= need->lowest) continue;
        report::Finding f;
        const bool via_minor = need->full && need->lowest < *need->full->min_driver;
        f.message =
            "The image runs CUDA " + cuda_text + " (from " + cuda->source +
            "), which needs driver >= " + need->lowest.str() +
            (via_minor ? " (" + need->full->min_driver->str() + " for full compatibility)" : "") +
            "; the fleet driver " + driver.str() +
            " is older: CUDA calls fail with \"CUDA driver version is insufficient for CUDA "
            "runtime version\"";
        if (const auto pools = pools_with_driver(stack.targets, driver); !pools.empty())
            f.message += "; node pools that cannot run it: " + pools;
        f.evidence.push_back("CUDA version used: " + cuda->source);
        for (const auto& p : cuda->provenance) f.evidence.push_back("  " + p);
        if (need->full)
            f.evidence.push_back("CUDA " + need->full->matched_cuda.str() +
                                 " needs driver >= " + need->full->min_driver->str() + ": " +
                                 util::cite(need->full->provenance));
        if (need->minor && need->minor->min_driver)
            f.evidence.push_back("minor version compatibility for CUDA " +
                                 std::to_string(cuda->version.major()) +
                                 ".x needs driver >= " + need->minor->min_driver->str() + ": " +
                                 util::cite(need->minor->provenance));
        if (!stack.compat_libraries.empty()) {
            // cuda-compat makes a newer CUDA run on an older driver, on data-center GPUs only.
            f.severity = report::Severity::warning;
            f.id = "CUV009";
            f.message += "; the image ships " + stack.compat_libraries.front().path +
                         " (cuda-compat), which lifts this on data-center GPUs only";
            for (const auto& c : stack.compat_libraries) f.locations.push_back({c.path});
            f.evidence.push_back("forward compatibility: " +
                                 util::cite(db.forward_compat().provenance));
        }
        auto fits = newest_cuda_for(db, driver);
        f.fix = "Upgrade the fleet driver to " + need->lowest.str() + " or newer" +
                (fits ? ", or build on a base image with CUDA " + fits->str() +
                            " or older (e.g. nvidia/cuda:" + fits->str() + "-…)"
                      : "") +
                ".";
        out.push_back(std::move(f));
    }
    return out;
}

}  // namespace cuv009

const ValidateCheck cuv009_driver_too_old{
    CheckInfo{
        .id = "CUV009",
        .severity = report::Severity::error,
        .name = "driver-too-old",
    },
    &cuv009::run,
};

}  // namespace cuvet::checks
