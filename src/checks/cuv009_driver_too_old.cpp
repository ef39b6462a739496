// CUV009 driver-too-old
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "check_util.hpp"
#include "checks.hpp"

namespace cuvet::checks {

namespace {

// The newest CUDA release the driver runs without compat packages.
std::optional<rules::Version> newest_cuda_for(const rules::Database& db, const rules::Version& driver) {
    std::optional<rules::Version> best;
    for (const auto& e : db.driver_entries())
        if (e.min_driver && *e.min_driver <= driver && (!best || *best < e.cuda)) best = e.cuda;
    return best;
}

std::vector<report::Finding> run(const Stack& stack, const rules::Database& db) {
    std::vector<report::Finding> out;
    if (stack.targets.drivers.empty() || !stack.cuda_version) return out;
    auto need = db.min_driver_for(*stack.cuda_version);
    if (!need || !need->min_driver) return out;  // unknown stays unknown
    const auto* minor_compat = db.minor_version_compat(stack.cuda_version->major());
    for (const auto& driver : stack.targets.drivers) {
        if (driver >= *need->min_driver) continue;
        // Minor version compatibility: a driver of the same major family runs the toolkit (no PTX JIT of newer PTX).
        if (minor_compat && minor_compat->min_driver && driver >= *minor_compat->min_driver) continue;
        report::Finding f;
        // The lowest driver that runs it: minor version compatibility when the
        // family has it (the release-notes row may be a later update's).
        const bool has_minor_compat = minor_compat && minor_compat->min_driver && *minor_compat->min_driver < *need->min_driver;
        const rules::Version lowest = has_minor_compat ? *minor_compat->min_driver : *need->min_driver;
        f.message = "The image holds CUDA " + stack.cuda_version->str() + ", which needs driver >= " + lowest.str() +
                    (has_minor_compat ? " (" + need->min_driver->str() + " for full compatibility)" : "") +
                    "; the fleet driver " + driver.str() + " is older: CUDA calls fail with \"CUDA driver version is insufficient for CUDA runtime version\"";
        for (const auto& p : stack.cuda_version_provenance) f.evidence.push_back("image CUDA: " + p);
        f.evidence.push_back("CUDA " + need->matched_cuda.str() + " needs driver >= " + need->min_driver->str() + ": " + util::cite(need->provenance));
        if (minor_compat && minor_compat->min_driver)
            f.evidence.push_back("minor version compatibility for CUDA " + std::to_string(stack.cuda_version->major()) +
                                 ".x needs driver >= " + minor_compat->min_driver->str() + ": " + util::cite(minor_compat->provenance));
        if (!stack.compat_libraries.empty()) {
            // cuda-compat makes a newer CUDA run on an older driver, on data-center GPUs only.
            f.severity = report::Severity::warning;
            f.id = "CUV009";
            f.message += "; the image ships " + stack.compat_libraries.front().path +
                         " (cuda-compat), which lifts this on data-center GPUs only";
            for (const auto& c : stack.compat_libraries) f.locations.push_back({c.path});
            f.evidence.push_back("forward compatibility: " + util::cite(db.forward_compat().provenance));
        }
        auto fits = newest_cuda_for(db, driver);
        f.fix = "Upgrade the fleet driver to " + lowest.str() + " or newer" +
                (fits ? ", or build on a base image with CUDA " + fits->str() + " or older (e.g. nvidia/cuda:" + fits->str() + "-…)" : "") + ".";
        out.push_back(std::move(f));
    }
    return out;
}

}  // namespace

const ValidateCheck cuv009_driver_too_old{
    CheckInfo{
        .id = "CUV009",
        .severity = report::Severity::error,
        .title = "The target driver is older than the image's CUDA requires",
        .rationale = "Each CUDA toolkit needs a minimum driver (CUDA 12.4.1: 550.54.15). With an older driver the first CUDA call fails with \"CUDA driver version is insufficient for CUDA runtime version\" (error 35), unless minor-version compatibility applies (same major, driver ≥ the major's floor, no PTX JIT of newer code) or the image carries the cuda-compat package (datacenter GPUs only). The targets come from --driver or the drivers listed in .cuvet.yaml.",
        .failing_example = "cuvet validate image.tar --driver 535.104.05\n# image: CUDA 12.4.1 (needs 550.54.15); no cuda-compat in the image\n# → CUV009 (minor-version compatibility would allow it, PTX JIT of 12.4 code would fail)",
        .passing_example = "cuvet validate image.tar --driver 550.54.15",
        .fix = "Upgrade the fleet driver to at least the required version, build on an older CUDA base (12.2.2 for a 535 driver), or add cuda-compat-X-Y to the image for datacenter GPUs.",
        .name = "driver-too-old",
    },
    &run,
};

}  // namespace cuvet::checks
