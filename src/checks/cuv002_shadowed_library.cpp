// CUV002 shadowed-library: metadata now; run() comes with the loader/inventory Stack.
#include "checks.hpp"

namespace cuvet::checks {

const ValidateCheck cuv002_shadowed_library{
    CheckInfo{
        .id = "CUV002",
        .severity = report::Severity::warning,
        .title = "A library resolves to a different copy than the one the framework ships",
        .rationale = "pip wheels bundle their CUDA libraries (torch loads nvidia/cudnn/lib/libcudnn.so.9 through its RPATH). An LD_LIBRARY_PATH entry or an ld.so.cache entry that the loader consults first makes another copy win, usually an older system cuDNN. The process then runs with a library the framework was never tested with, and fails later with \"CUDNN_STATUS_NOT_INITIALIZED\", version-mismatch errors or wrong results.",
        .failing_example = "FROM nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04\nENV LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu\nRUN pip install torch==2.1.2 --index-url https://download.pytorch.org/whl/cu118\n# torch expects site-packages/nvidia/cudnn/lib/libcudnn.so.8 (8.7.0); LD_LIBRARY_PATH makes\n# the system 8.6.0 copy win → CUV002",
        .passing_example = "FROM nvidia/cuda:11.8.0-base-ubuntu22.04\nRUN pip install torch==2.1.2 --index-url https://download.pytorch.org/whl/cu118\n# no system cuDNN and no LD_LIBRARY_PATH override: torch gets the copy it ships",
        .fix = "Remove the directory from LD_LIBRARY_PATH (or put the framework's own library dir first), or drop the system copy (use a -base or -runtime image without cuDNN when the framework brings its own).",
        .name = "shadowed-library",
    },
    nullptr,
};

}  // namespace cuvet::checks
