#include "live_finding.hpp"

#include "cuvet/checks/registry.hpp"
#include "cuvet/core/error.hpp"

namespace cuvet::sandbox {

report::Finding live_finding(std::string_view id, std::string message, std::string fix) {
    const checks::CheckEntry* entry = checks::find_check(id);
    if (entry == nullptr || entry->kind != checks::CheckKind::live)
        throw Error(ErrorKind::internal,
                    "live finding " + std::string(id) + " is not a registered live check");
    report::Finding finding;
    finding.id = entry->info->id;
    finding.severity = entry->info->severity;
    finding.title = entry->info->title;
    finding.message = std::move(message);
    finding.fix = std::move(fix);
    return finding;
}

}  // namespace cuvet::sandbox
