// CUVG11 framework-cpu-fallback: reported by the live check (src/sandbox), documented here
#include "checks/checks.hpp"

namespace cuvet::checks {

const LiveCheck cuvg11_framework_cpu_fallback{CheckInfo{
    .id = "CUVG11",
    .severity = report::Severity::error,
    .name = "framework-cpu-fallback",
}};

}  // namespace cuvet::checks
