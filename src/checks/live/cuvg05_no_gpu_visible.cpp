// CUVG05 no-gpu-visible: reported by the live check (src/sandbox), documented here
#include "checks/checks.hpp"

namespace cuvet::checks {

const LiveCheck cuvg05_no_gpu_visible{CheckInfo{
    .id = "CUVG05",
    .severity = report::Severity::error,
    .title = "no GPU visible",
    .rationale =
        "The probe saw no usable GPU inside the image although the host has one: the device nodes "
        "or the driver libraries did not reach the sandbox. The live check cannot judge the image "
        "then; `cuvet probe` and `validate --probe` end with exit 3 instead of reporting it.",
    .failing_example =
        "the probe saw no usable GPU inside the image (cuInit: CUDA_ERROR_NO_DEVICE)",
    .passing_example = "the probe sees the host's GPU",
    .fix =
        "Run on a host with an NVIDIA GPU and driver; check /dev/nvidia* and the driver libraries.",
    .name = "no-gpu-visible",
}};

}  // namespace cuvet::checks
