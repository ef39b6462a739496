// CUV003 duplicate-versions: metadata now; run() comes with the loader/inventory Stack.
#include "checks.hpp"

namespace cuvet::checks {

const ValidateCheck cuv003_duplicate_versions{
    CheckInfo{
        .id = "CUV003",
        .severity = report::Severity::warning,
        .title = "Several copies of cuDNN or the CUDA runtime with different versions",
        .rationale = "Two cuDNN or cudart copies of different versions in one image mean that which one a process gets depends on search order, and two consumers in one process can end up with different copies, or the first one loaded wins for both. This is the root of many \"works in one entrypoint, fails in another\" reports. The finding lists every copy with its version and which consumer loads which.",
        .failing_example = "FROM nvidia/cuda:12.1.1-cudnn8-runtime-ubuntu22.04   # /usr/lib/x86_64-linux-gnu/libcudnn.so.8 (8.9.0)\nRUN pip install torch==2.1.2                        # site-packages/nvidia/cudnn/lib/libcudnn.so.8 (8.9.2)\n# → CUV003 two libcudnn.so.8 copies: 8.9.0 and 8.9.2",
        .passing_example = "FROM nvidia/cuda:12.1.1-base-ubuntu22.04\nRUN pip install torch==2.1.2   # the only cuDNN is the wheel's",
        .fix = "Keep one copy: choose a base image without cuDNN when the framework's wheel brings its own, or pin the system package to the version the framework was built with and remove the wheel's copy.",
        .name = "duplicate-versions",
    },
    nullptr,
};

}  // namespace cuvet::checks
