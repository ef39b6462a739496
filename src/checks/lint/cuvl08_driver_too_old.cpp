// CUVL08: the CUDA the final stage runs needs a newer driver than the fleet has.
#include <map>

#include "checks/lint/lint_support.hpp"
#include "cuvet/checks/registry.hpp"

namespace cuvet::checks {
namespace cuvl08 {

struct Need {
    rules::Version cuda;
    std::string who;
    int line = 0;
    int end_line = 0;
};

std::vector<report::Finding> run(const dockerfile::Facts& facts, const rules::Database& db) {
    std::vector<report::Finding> out;
    if (facts.fleet_drivers.empty()) return out;
    std::vector<rules::Version> drivers;
    for (const auto& d : facts.fleet_drivers) {
        if (auto v = rules::Version::parse(d)) drivers.push_back(*v);
    }
    const auto& stage = facts.final_stage();
    std::vector<Need> needs;
    const lint::BaseStack base = lint::base_stack(stage.base, db);
    if (base.cuda && base.cuda->size() >= 2) {
        needs.push_back({*base.cuda, "the base image " + base.description,
                         facts.build.stages.at(stage.stage).from_line, 0});
    }
    bool compat_package = false;
    for (const auto& p : stage.packages) {
        if (p.manager == dockerfile::Manager::apt && p.name.starts_with("cuda-compat-"))
            compat_package = true;
        auto wheel = lint::wheel_stack(p, db);
        if (!wheel || !wheel->bundles_libraries || !wheel->cuda || wheel->cuda->size() < 2)
            continue;
        needs.push_back({*wheel->cuda, p.word + " (" + wheel->evidence + ")", p.line, p.end_line});
    }
    for (const auto& need : needs) {
        auto requirement = db.min_driver_for(need.cuda);
        if (!requirement || !requirement->min_driver) continue;
        const auto* floor = db.minor_version_compat(need.cuda.major());
        for (const auto& driver : drivers) {
            if (driver >= *requirement->min_driver) continue;
            const bool minor_compat = floor && floor->min_driver && driver >= *floor->min_driver;
            auto f = lint::finding(facts, "CUVL08", need.line, need.end_line);
            f.severity = minor_compat || compat_package ? report::Severity::warning
                                                        : report::Severity::error;
            f.message = "CUDA " + need.cuda.str() + ", required by " + need.who +
                        ", needs driver >= " + requirement->min_driver->str() + " (CUDA " +
                        requirement->matched_cuda.str() + "), but the fleet runs " + driver.str() +
                        ". ";
            if (minor_compat) {
                f.message +=
                    "It may still start through CUDA minor-version compatibility (driver >= " +
                    floor->min_driver->str() + " for CUDA " + std::to_string(need.cuda.major()) +
                    ".x), but PTX that must be JIT-compiled fails with "
                    "CUDA_ERROR_UNSUPPORTED_PTX_VERSION and newer APIs return errors.";
            } else {
                f.message +=
                    "Every CUDA call fails with 'CUDA driver version is insufficient for "
                    "CUDA runtime version'" +
                    std::string(compat_package
                                    ? " unless the cuda-compat package (data-center GPUs only) "
                                      "is on the loader path."
                                    : ".");
            }
            f.evidence.push_back("rules: cuda_drivers " + requirement->matched_cuda.str() + " -> " +
                                 requirement->min_driver->str() + " (" +
                                 requirement->provenance.source.url + ")");
            f.fix = "Use a CUDA release the fleet's driver " + driver.str() +
                    " supports, upgrade the driver, or (data-center GPUs) add the matching "
                    "cuda-compat package.";
            out.push_back(std::move(f));
        }
    }
    return out;
}

CheckInfo info() {
    CheckInfo i;
    i.id = "CUVL08";
    i.name = "driver-too-old";
    i.severity = report::Severity::error;
    return i;
}

}  // namespace cuvl08

extern const LintCheck cuvl08_driver_too_old;
const LintCheck cuvl08_driver_too_old{cuvl08::info(), &cuvl08::run};

}  // namespace cuvet::checks
