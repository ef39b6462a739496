// CUVG04 convolution-result-mismatch: reported by the live check (src/sandbox), documented here
#include "checks/checks.hpp"

namespace cuvet::checks {

const LiveCheck cuvg04_convolution_result_mismatch{CheckInfo{
    .id = "CUVG04",
    .severity = report::Severity::error,
    .title = "convolution result mismatch",
    .rationale =
        "The probe's cuDNN convolution ran but its result differs from a CPU reference beyond the "
        "tolerance: the GPU stack computes wrong numbers, which no error message will ever report.",
    .failing_example = "float convolution (algo 1) differs from the CPU reference: 12 elements "
                       "outside atol 0.001000 + rtol 0.001000",
    .passing_example = "the float and half convolutions match the CPU reference",
    .fix = "The GPU stack computes wrong results: check the driver, the cuDNN build and the GPU's "
           "health.",
    .name = "convolution-result-mismatch",
}};

}  // namespace cuvet::checks
