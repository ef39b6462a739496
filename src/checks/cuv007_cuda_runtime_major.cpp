// CUV007 cuda-runtime-major: metadata now; run() comes with the loader/inventory Stack.
#include "checks.hpp"

namespace cuvet::checks {

const ValidateCheck cuv007_cuda_runtime_major{
    CheckInfo{
        .id = "CUV007",
        .severity = report::Severity::error,
        .title = "A framework built for another CUDA major than the image provides",
        .rationale = "A framework built against CUDA 12 needs libcudart.so.12, libcublas.so.12 and friends; CUDA majors are not interchangeable (the sonames differ). When the framework does not bundle them and the image holds CUDA 11, the import fails with \"libcudart.so.12: cannot open shared object file\", or the framework falls back to the CPU.",
        .failing_example = "FROM nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04\nRUN pip install tensorflow==2.15.0   # built for CUDA 12.2\n# → CUV007 tensorflow 2.15.0 needs CUDA 12; the image provides CUDA 11.8",
        .passing_example = "FROM nvidia/cuda:12.2.2-cudnn8-runtime-ubuntu22.04\nRUN pip install tensorflow==2.15.0",
        .fix = "Use a base image of the framework's CUDA major (or the framework variant for the image's CUDA: torch+cu118 on a CUDA 11.8 image), or install the framework's CUDA wheels (tensorflow[and-cuda], nvidia-*-cu12).",
        .name = "cuda-runtime-major",
    },
    nullptr,
};

}  // namespace cuvet::checks
