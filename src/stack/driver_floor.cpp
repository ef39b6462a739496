// The lowest driver that runs an image's CUDA (CUV009, freeze, the SBOM's driver floor).
#include "cuvet/stack/stack_facts.hpp"

namespace cuvet::stack {

std::optional<DriverNeed> driver_need(const rules::Database& db, const RuntimeCudaFact& cuda) {
    DriverNeed need;
    need.minor = db.minor_version_compat(cuda.version.major());
    const bool has_minor = need.minor && need.minor->min_driver;
    if (!cuda.major_only) {
        need.full = db.min_driver_for(cuda.version);
        if (need.full && !need.full->min_driver) need.full.reset();
    }
    // Only the major known: any release of it runs from the major's floor on.
    if (need.full && (!has_minor || *need.full->min_driver <= *need.minor->min_driver))
        need.lowest = *need.full->min_driver;
    else if (has_minor)
        need.lowest = *need.minor->min_driver;
    else
        return std::nullopt;  // unknown stays unknown
    return need;
}

std::optional<DriverFloor> driver_floor(const Stack& stack, const rules::Database& db) {
    const auto cuda = runtime_cuda_of(stack);
    if (!cuda) return std::nullopt;
    const auto need = driver_need(db, *cuda);
    if (!need) return std::nullopt;
    DriverFloor out;
    out.lowest = need->lowest;
    if (need->full) {
        out.full = need->full->min_driver;
        out.provenance.push_back(rules::cite(need->full->provenance));
    }
    if (need->minor && need->minor->min_driver)
        out.provenance.push_back(rules::cite(need->minor->provenance));
    return out;
}

}  // namespace cuvet::stack
