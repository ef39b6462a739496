// CUVG12 framework-gpu-compute-failed: reported by the live check (src/sandbox), documented here
#include "checks/checks.hpp"

namespace cuvet::checks {

const LiveCheck cuvg12_framework_gpu_compute_failed{CheckInfo{
    .id = "CUVG12",
    .severity = report::Severity::error,
    .name = "framework-gpu-compute-failed",
}};

}  // namespace cuvet::checks
