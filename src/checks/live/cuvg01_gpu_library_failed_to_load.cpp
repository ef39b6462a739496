// CUVG01 gpu-library-failed-to-load: reported by the live check (src/sandbox), documented here
#include "checks/checks.hpp"

namespace cuvet::checks {

const LiveCheck cuvg01_gpu_library_failed_to_load{CheckInfo{
    .id = "CUVG01",
    .severity = report::Severity::error,
    .name = "gpu-library-failed-to-load",
}};

}  // namespace cuvet::checks
