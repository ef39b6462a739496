// CUVG07 probe-did-not-finish: reported by the live check (src/sandbox), documented here
#include "checks/checks.hpp"

namespace cuvet::checks {

const LiveCheck cuvg07_probe_did_not_finish{CheckInfo{
    .id = "CUVG07",
    .severity = report::Severity::error,
    .title = "GPU probe did not finish",
    .rationale = "The probe crashed, hung past its timeout, printed more than its output limit or "
                 "could not start, so it left no result to believe. A crash in a GPU library at "
                 "load or init is itself the breakage the workload would hit.",
    .failing_example = "the probe (builtin runtime) crashed with signal 11 (Segmentation fault)",
    .passing_example = "the probe prints its result line",
    .fix = "See the evidence: the probe's last stage names the call that hung or crashed.",
    .name = "probe-did-not-finish",
}};

}  // namespace cuvet::checks
