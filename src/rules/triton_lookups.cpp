// Lookups over triton.json. Unknown stays unknown: nullptr, never the nearest row.
#include "cuvet/rules/database.hpp"

namespace cuvet::rules {

const TritonRelease* Database::triton_release(const Version& version) const {
    for (const auto& release : triton_releases_) {
        if (release.version == version) return &release;
    }
    return nullptr;
}

const TritonRelease* Database::triton_for_torch(const Version& torch) const {
    const TritonRelease* best = nullptr;
    std::size_t best_precision = 0;
    for (const auto& release : triton_releases_) {
        for (const auto& pinned_by : release.torch) {
            if (!pinned_by.covers(torch) && pinned_by != torch) continue;
            // "2.12.1" says more about 2.12.1 than "2.12" does.
            if (!best || pinned_by.size() > best_precision) {
                best = &release;
                best_precision = pinned_by.size();
            }
        }
    }
    return best;
}

}  // namespace cuvet::rules
