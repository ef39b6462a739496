// CUVG12 framework-gpu-compute-failed: reported by the live check (src/sandbox), documented here
#include "checks/checks.hpp"

namespace cuvet::checks {

const LiveCheck cuvg12_framework_gpu_compute_failed{CheckInfo{
    .id = "CUVG12",
    .severity = report::Severity::error,
    .title = "framework could not compute on the GPU",
    .rationale =
        "The framework sees the GPU but its first GPU computation fails: a cuDNN it refuses "
        "(PyTorch's \"cuDNN version incompatibility\"), XLA without ptxas or libdevice (\"Can't "
        "find libdevice directory\"), CuPy without NVRTC (\"Failure finding libnvrtc.so.13\").",
    .failing_example = "torch 2.3.0 imported but failed at its conv step on the GPU: RuntimeError: "
                       "cuDNN version incompatibility: PyTorch was compiled against (8, 9, 2) but "
                       "found runtime version (8, 6, 0)",
    .passing_example = "one convolution runs on the GPU",
    .fix = "Make the loader find the libraries and tools the framework names (its pinned cuDNN, "
           "ptxas and libdevice, NVRTC).",
    .name = "framework-gpu-compute-failed",
}};

}  // namespace cuvet::checks
