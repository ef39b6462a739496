// CUVG02 loaded-cudnn-differs: reported by the live check (src/sandbox), documented here
#include "checks/checks.hpp"

namespace cuvet::checks {

const LiveCheck cuvg02_loaded_cudnn_differs{CheckInfo{
    .id = "CUVG02",
    .severity = report::Severity::error,
    .name = "loaded-cudnn-differs",
}};

}  // namespace cuvet::checks
