#include "cuda_api.hpp"

namespace cuvet::probe {
namespace {

template <class F>
void bind_one(DynLib& lib, F& function, const char* name) {
    function = reinterpret_cast<F>(lib.symbol(name));
}

std::string numbered(const char* prefix, int status) {
    return std::string(prefix) + std::to_string(status);
}

}  // namespace

#define CUVET_BIND(lib, field) bind_one(lib, field, #field)

bool DriverApi::bind(DynLib& lib) {
    CUVET_BIND(lib, cuInit);
    CUVET_BIND(lib, cuDriverGetVersion);
    CUVET_BIND(lib, cuDeviceGetCount);
    CUVET_BIND(lib, cuDeviceGet);
    CUVET_BIND(lib, cuDeviceGetName);
    CUVET_BIND(lib, cuDeviceGetAttribute);
    // The un-suffixed cuDeviceTotalMem is the CUDA 3.1 ABI (32-bit size).
    bind_one(lib, cuDeviceTotalMem, "cuDeviceTotalMem_v2");
    CUVET_BIND(lib, cuGetErrorName);
    return lib.missing.empty();
}

std::string DriverApi::name(abi::CUresult status) const {
    const char* text = nullptr;
    if (cuGetErrorName != nullptr && cuGetErrorName(status, &text) == abi::CUDA_SUCCESS &&
        text != nullptr)
        return text;
    return numbered("CUresult ", status);
}

bool RuntimeApi::bind(DynLib& lib) {
    CUVET_BIND(lib, cudaRuntimeGetVersion);
    CUVET_BIND(lib, cudaDriverGetVersion);
    CUVET_BIND(lib, cudaGetDeviceCount);
    CUVET_BIND(lib, cudaSetDevice);
    CUVET_BIND(lib, cudaMalloc);
    CUVET_BIND(lib, cudaFree);
    CUVET_BIND(lib, cudaMemcpy);
    CUVET_BIND(lib, cudaDeviceSynchronize);
    CUVET_BIND(lib, cudaGetErrorName);
    CUVET_BIND(lib, cudaGetErrorString);
    return lib.missing.empty();
}

std::string RuntimeApi::name(abi::cudaError_t status) const {
    if (cudaGetErrorName != nullptr) {
        if (const char* text = cudaGetErrorName(status)) return text;
    }
    return numbered("cudaError ", status);
}

bool CudnnApi::bind(DynLib& lib) {
    CUVET_BIND(lib, cudnnGetVersion);
    CUVET_BIND(lib, cudnnGetCudartVersion);
    CUVET_BIND(lib, cudnnGetErrorString);
    CUVET_BIND(lib, cudnnCreate);
    CUVET_BIND(lib, cudnnDestroy);
    CUVET_BIND(lib, cudnnCreateTensorDescriptor);
    CUVET_BIND(lib, cudnnDestroyTensorDescriptor);
    CUVET_BIND(lib, cudnnSetTensor4dDescriptor);
    CUVET_BIND(lib, cudnnCreateFilterDescriptor);
    CUVET_BIND(lib, cudnnDestroyFilterDescriptor);
    CUVET_BIND(lib, cudnnSetFilter4dDescriptor);
    CUVET_BIND(lib, cudnnCreateConvolutionDescriptor);
    CUVET_BIND(lib, cudnnDestroyConvolutionDescriptor);
    CUVET_BIND(lib, cudnnSetConvolution2dDescriptor);
    CUVET_BIND(lib, cudnnSetConvolutionMathType);
    CUVET_BIND(lib, cudnnGetConvolution2dForwardOutputDim);
    CUVET_BIND(lib, cudnnGetConvolutionForwardAlgorithm_v7);
    CUVET_BIND(lib, cudnnGetConvolutionForwardWorkspaceSize);
    CUVET_BIND(lib, cudnnConvolutionForward);
    return lib.missing.empty();
}

std::string CudnnApi::name(abi::cudnnStatus_t status) const {
    if (cudnnGetErrorString != nullptr) {
        if (const char* text = cudnnGetErrorString(status)) return text;
    }
    return numbered("cudnnStatus ", status);
}

#undef CUVET_BIND

}  // namespace cuvet::probe
