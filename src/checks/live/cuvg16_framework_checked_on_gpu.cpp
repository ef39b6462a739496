// CUVG16 framework-checked-on-gpu: reported by the live check (src/sandbox), documented here
#include "checks/checks.hpp"

namespace cuvet::checks {

const LiveCheck cuvg16_framework_checked_on_gpu{CheckInfo{
    .id = "CUVG16",
    .severity = report::Severity::info,
    .name = "framework-checked-on-gpu",
}};

}  // namespace cuvet::checks
