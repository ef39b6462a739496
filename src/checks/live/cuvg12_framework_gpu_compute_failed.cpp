// CUVG12 framework-gpu-compute-failed: reported by the live check (src/sandbox), documented here
#include "checks/checks.hpp"

namespace cuvet::checks {

const LiveCheck cuvg12_framework_gpu_compute_failed{CheckInfo{
    .id = "CUVG12",
    .severity = report::Severity::error,
    .title = "framework could not compute on the GPU",
    .rationale =
        "The framework sees the GPU but its first GPU computation fails: a cuDNN it refuses "
        "(\"cuDNN version incompatibility\"), a compiler without ptxas or libdevice (\"Can't find "
        "libdevice directory\"), a kernel compiler without NVRTC (\"Failure finding "
        "libnvrtc.so.13\"); docs/probe.md names each framework's words.",
    .failing_example = "<framework> <version> imported but failed at its conv step on the GPU: "
                       "RuntimeError: cuDNN version incompatibility: compiled against (8, 9, 2) "
                       "but found runtime version (8, 6, 0)",
    .passing_example = "one convolution runs on the GPU",
    .fix = "Make the loader find the libraries and tools the framework names (its pinned cuDNN, "
           "ptxas and libdevice, NVRTC).",
    .name = "framework-gpu-compute-failed",
}};

}  // namespace cuvet::checks
