// CUV006 cudnn-cuda-major: metadata now; run() comes with the loader/inventory Stack.
#include "checks.hpp"

namespace cuvet::checks {

const ValidateCheck cuv006_cudnn_cuda_major{
    CheckInfo{
        .id = "CUV006",
        .severity = report::Severity::error,
        .title = "cuDNN built for a different CUDA major than the runtime it will load",
        .rationale = "cuDNN is published per CUDA major (\"cuDNN 8.9.7 for CUDA 11.x\", \"… for CUDA 12.x\") and links that major's libcublas/libcudart. A cuDNN for CUDA 11 next to a CUDA 12 runtime either fails to load (libcublasLt.so.11 not found) or loads a second CUDA runtime into the process.",
        .failing_example = "FROM nvidia/cuda:12.2.2-runtime-ubuntu22.04\nRUN apt-get install -y libcudnn8=8.9.7.29-1+cuda11.8\n# → CUV006 libcudnn.so.8 (8.9.7 for CUDA 11) next to libcudart.so.12",
        .passing_example = "FROM nvidia/cuda:12.2.2-runtime-ubuntu22.04\nRUN apt-get install -y libcudnn8=8.9.7.29-1+cuda12.2",
        .fix = "Install the cuDNN build for the image's CUDA major: apt libcudnnN-cuda-X / the +cudaX.Y package version, or pip nvidia-cudnn-cu12 (not -cu11) for CUDA 12.",
        .name = "cudnn-cuda-major",
    },
    nullptr,
};

}  // namespace cuvet::checks
