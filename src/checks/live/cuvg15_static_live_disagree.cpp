// CUVG15 static-live-disagree: reported by the live check (src/sandbox), documented here
#include "checks/checks.hpp"

namespace cuvet::checks {

const LiveCheck cuvg15_static_live_disagree{CheckInfo{
    .id = "CUVG15",
    .severity = report::Severity::warning,
    .title = "static and live checks disagree",
    .rationale = "`validate --probe` compares the static verdict with what really happened: a "
                 "static error for a framework that works, no static error for one that fails, or "
                 "a framework that loaded another cuDNN than the inventory expected. Either is a "
                 "cuvet bug or a missing rule, which the user must see.",
    .failing_example =
        "the static check found no error for <framework>, but the live check failed: "
        "import <framework> failed inside the image",
    .passing_example = "the static and the live verdicts agree",
    .fix = "Report it to cuvet with the evidence: a rule is missing or wrong.",
    .name = "static-live-disagree",
}};

}  // namespace cuvet::checks
