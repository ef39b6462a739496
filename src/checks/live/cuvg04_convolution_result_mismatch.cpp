// CUVG04 convolution-result-mismatch: reported by the live check (src/sandbox), documented here
#include "checks/checks.hpp"

namespace cuvet::checks {

const LiveCheck cuvg04_convolution_result_mismatch{CheckInfo{
    .id = "CUVG04",
    .severity = report::Severity::error,
    .name = "convolution-result-mismatch",
}};

}  // namespace cuvet::checks
