// CUVG14 framework-probe-did-not-finish: reported by the live check (src/sandbox), documented here
#include "checks/checks.hpp"

namespace cuvet::checks {

const LiveCheck cuvg14_framework_probe_did_not_finish{CheckInfo{
    .id = "CUVG14",
    .severity = report::Severity::error,
    .name = "framework-probe-did-not-finish",
}};

}  // namespace cuvet::checks
