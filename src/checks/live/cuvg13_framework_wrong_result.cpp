// CUVG13 framework-wrong-result: reported by the live check (src/sandbox), documented here
#include "checks/checks.hpp"

namespace cuvet::checks {

const LiveCheck cuvg13_framework_wrong_result{CheckInfo{
    .id = "CUVG13",
    .severity = report::Severity::error,
    .name = "framework-wrong-result",
}};

}  // namespace cuvet::checks
