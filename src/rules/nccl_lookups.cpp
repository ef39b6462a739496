// Lookups over nccl.json. Unknown stays unknown: nullptr or nullopt, never the nearest row.
#include "cuvet/rules/database.hpp"

namespace cuvet::rules {

std::optional<bool> NcclRelease::built_for_major(int cuda_major) const {
    for (const auto& build : cuda) {
        if (build.major() == cuda_major) return true;
    }
    if (complete) return false;
    return std::nullopt;
}

const NcclRelease* Database::nccl_release(const Version& version) const {
    for (const auto& release : nccl_releases_) {
        if (release.version == version) return &release;
    }
    return nullptr;
}

const NcclPin* Database::nccl_pin(std::string_view framework, const Version& version,
                                  std::string_view variant) const {
    const NcclPin* best = nullptr;
    for (const auto& pin : nccl_pins_) {
        if (pin.framework != framework || pin.variant != variant) continue;
        if (!pin.version.covers(version) && pin.version != version) continue;
        // "2.12.1" says more about 2.12.1 than "2.12" does.
        if (!best || pin.version.size() > best->version.size()) best = &pin;
    }
    return best;
}

}  // namespace cuvet::rules
