// CUVG05 no-gpu-visible: reported by the live check (src/sandbox), documented here
#include "checks/checks.hpp"

namespace cuvet::checks {

const LiveCheck cuvg05_no_gpu_visible{CheckInfo{
    .id = "CUVG05",
    .severity = report::Severity::error,
    .name = "no-gpu-visible",
}};

}  // namespace cuvet::checks
