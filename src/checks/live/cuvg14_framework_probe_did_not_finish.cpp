// CUVG14 framework-probe-did-not-finish: reported by the live check (src/sandbox), documented here
#include "checks/checks.hpp"

namespace cuvet::checks {

const LiveCheck cuvg14_framework_probe_did_not_finish{CheckInfo{
    .id = "CUVG14",
    .severity = report::Severity::error,
    .title = "framework probe did not finish",
    .rationale = "The framework's smoke test timed out, crashed or printed no result line, so its "
                 "verdict is unknown. A hang or crash at import or at the first GPU call is what "
                 "the workload would hit too.",
    .failing_example = "/usr/bin/python3 running the <framework> probe was killed after 180 s (the "
                       "framework probe's timeout)",
    .passing_example = "the framework's smoke test prints its result line",
    .fix = "See the evidence: the framework's own stderr names the call that hung or crashed; "
           "raise --framework-timeout for a slow first compile.",
    .name = "framework-probe-did-not-finish",
}};

}  // namespace cuvet::checks
