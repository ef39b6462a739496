// CUV014 env-contradicts: metadata now; run() comes with the loader/inventory Stack.
#include "checks.hpp"

namespace cuvet::checks {

const ValidateCheck cuv014_env_contradicts{
    CheckInfo{
        .id = "CUV014",
        .severity = report::Severity::warning,
        .title = "CUDA env variables that contradict what the image contains",
        .rationale = "NVIDIA_REQUIRE_CUDA is checked by the container runtime against the host driver; CUDA_VERSION and NV_CUDNN_VERSION are read by scripts and tools. An image that installs a different CUDA or cuDNN than these say (a base image's env left behind after an upgrade) makes the runtime accept hosts whose driver is too old, or reject good ones.",
        .failing_example = "FROM nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04   # CUDA_VERSION=11.8.0, NVIDIA_REQUIRE_CUDA=cuda>=11.8\nRUN apt-get install -y cuda-runtime-12-2\n# → CUV014 CUDA_VERSION says 11.8.0, the image's runtime is 12.2",
        .passing_example = "FROM nvidia/cuda:12.2.2-cudnn8-runtime-ubuntu22.04",
        .fix = "Start from the base image of the CUDA you install, or update CUDA_VERSION / NVIDIA_REQUIRE_CUDA / NV_CUDNN_VERSION with ENV to match what the image holds.",
        .name = "env-contradicts",
    },
    nullptr,
};

}  // namespace cuvet::checks
