#include "cuvet/core/cuda_libraries.hpp"

#include <array>

namespace cuvet {

namespace {

// The driver's libraries (libcuda, libnvidia-ml) are scanned for, never
// judged as the image's: the host provides them. Driver API symbols (cuInit) are not judged.
constexpr std::array<CudaLibrary, 18> table = {{
    {"cudnn", "cudnn", "cudnn", true, true},
    {"cudart", "cudart", "cuda", true, true},
    {"cublasLt", "cublas", "cublasLt", true, false},  // the stack finds it as cublas + "Lt"
    {"cublas", "cublas", "cublas", true, true},
    {"cufft", "cufft", "cufft", true, true},
    {"curand", "curand", "curand", true, true},
    {"cusolver", "cusolver", "cusolver", true, true},
    {"cusparse", "cusparse", "cusparse", true, true},
    {"nvrtc", "nvrtc", "nvrtc", true, true},
    // Opened by name by nvrtc and NCCL (rules/sonames.json by_name_loads); '-' is not a word
    // character, so the stems above never match them.
    {"nvrtc-builtins", "nvrtc", "", true, false},
    {"nccl-net", "nccl", "", true, false},
    {"nvJitLink", "nvjitlink", "nvJitLink", true, true},
    {"nccl", "nccl", "nccl", true, true},
    {"nvinfer", "tensorrt", "", true, true},
    {"cupti", "cupti", "", false, true},
    {"nvblas", "cublas", "", false, true},
    {"cuda", "libcuda", "", true, false},
    {"nvidia-ml", "nvml", "", true, false},
}};

}  // namespace

std::span<const CudaLibrary> cuda_libraries() { return table; }

}  // namespace cuvet
