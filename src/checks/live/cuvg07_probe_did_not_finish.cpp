// CUVG07 probe-did-not-finish: reported by the live check (src/sandbox), documented here
#include "checks/checks.hpp"

namespace cuvet::checks {

const LiveCheck cuvg07_probe_did_not_finish{CheckInfo{
    .id = "CUVG07",
    .severity = report::Severity::error,
    .name = "probe-did-not-finish",
}};

}  // namespace cuvet::checks
