// CUVG03 cuda-init-failed: reported by the live check (src/sandbox), documented here
#include "checks/checks.hpp"

namespace cuvet::checks {

const LiveCheck cuvg03_cuda_init_failed{CheckInfo{
    .id = "CUVG03",
    .severity = report::Severity::error,
    .name = "cuda-init-failed",
}};

}  // namespace cuvet::checks
