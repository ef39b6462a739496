// CUVG15 static-live-disagree: reported by the live check (src/sandbox), documented here
#include "checks/checks.hpp"

namespace cuvet::checks {

const LiveCheck cuvg15_static_live_disagree{CheckInfo{
    .id = "CUVG15",
    .severity = report::Severity::warning,
    .name = "static-live-disagree",
}};

}  // namespace cuvet::checks
