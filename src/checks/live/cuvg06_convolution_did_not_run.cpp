// CUVG06 convolution-did-not-run: reported by the live check (src/sandbox), documented here
#include "checks/checks.hpp"

namespace cuvet::checks {

const LiveCheck cuvg06_convolution_did_not_run{CheckInfo{
    .id = "CUVG06",
    .severity = report::Severity::error,
    .title = "convolution did not run",
    .rationale = "CUDA and cuDNN initialised but a convolution failed: cuDNN has no kernel for "
                 "this GPU's compute capability, or its sub-libraries (libcudnn_cnn, "
                 "libcudnn_engines_*) are missing. The workload fails at its first convolution "
                 "(\"no kernel image is available for execution on the device\").",
    .failing_example =
        "half convolution failed at cudnnConvolutionForward: CUDNN_STATUS_EXECUTION_FAILED",
    .passing_example = "the float and half convolutions run",
    .fix = "Check that cuDNN's kernels support this GPU (its compute capability) and that its "
           "sub-libraries are present.",
    .name = "convolution-did-not-run",
}};

}  // namespace cuvet::checks
