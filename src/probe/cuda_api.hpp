#pragma once
// Function tables resolved from the dlopen()ed libraries, and status names.
#include <string>

#include "cuda_abi.hpp"
#include "dynlib.hpp"

namespace cuvet::probe {

struct DriverApi {
    abi::cuInit_t cuInit = nullptr;
    abi::cuDriverGetVersion_t cuDriverGetVersion = nullptr;
    abi::cuDeviceGetCount_t cuDeviceGetCount = nullptr;
    abi::cuDeviceGet_t cuDeviceGet = nullptr;
    abi::cuDeviceGetName_t cuDeviceGetName = nullptr;
    abi::cuDeviceGetAttribute_t cuDeviceGetAttribute = nullptr;
    abi::cuDeviceTotalMem_t cuDeviceTotalMem = nullptr;
    abi::cuGetErrorName_t cuGetErrorName = nullptr;

    bool bind(DynLib& lib);  // false when a symbol is missing (listed in lib.missing)
    std::string name(abi::CUresult status) const;
};

struct RuntimeApi {
    abi::cudaRuntimeGetVersion_t cudaRuntimeGetVersion = nullptr;
    abi::cudaDriverGetVersion_t cudaDriverGetVersion = nullptr;
    abi::cudaGetDeviceCount_t cudaGetDeviceCount = nullptr;
    abi::cudaSetDevice_t cudaSetDevice = nullptr;
    abi::cudaMalloc_t cudaMalloc = nullptr;
    abi::cudaFree_t cudaFree = nullptr;
    abi::cudaMemcpy_t cudaMemcpy = nullptr;
    abi::cudaDeviceSynchronize_t cudaDeviceSynchronize = nullptr;
    abi::cudaGetErrorName_t cudaGetErrorName = nullptr;
    abi::cudaGetErrorString_t cudaGetErrorString = nullptr;

    bool bind(DynLib& lib);
    std::string name(abi::cudaError_t status) const;
};

struct CudnnApi {
    abi::cudnnGetVersion_t cudnnGetVersion = nullptr;
    abi::cudnnGetCudartVersion_t cudnnGetCudartVersion = nullptr;
    abi::cudnnGetErrorString_t cudnnGetErrorString = nullptr;
    abi::cudnnCreate_t cudnnCreate = nullptr;
    abi::cudnnDestroy_t cudnnDestroy = nullptr;
    abi::cudnnCreateTensorDescriptor_t cudnnCreateTensorDescriptor = nullptr;
    abi::cudnnDestroyTensorDescriptor_t cudnnDestroyTensorDescriptor = nullptr;
    abi::cudnnSetTensor4dDescriptor_t cudnnSetTensor4dDescriptor = nullptr;
    abi::cudnnCreateFilterDescriptor_t cudnnCreateFilterDescriptor = nullptr;
    abi::cudnnDestroyFilterDescriptor_t cudnnDestroyFilterDescriptor = nullptr;
    abi::cudnnSetFilter4dDescriptor_t cudnnSetFilter4dDescriptor = nullptr;
    abi::cudnnCreateConvolutionDescriptor_t cudnnCreateConvolutionDescriptor = nullptr;
    abi::cudnnDestroyConvolutionDescriptor_t cudnnDestroyConvolutionDescriptor = nullptr;
    abi::cudnnSetConvolution2dDescriptor_t cudnnSetConvolution2dDescriptor = nullptr;
    abi::cudnnSetConvolutionMathType_t cudnnSetConvolutionMathType = nullptr;
    abi::cudnnGetConvolution2dForwardOutputDim_t cudnnGetConvolution2dForwardOutputDim = nullptr;
    abi::cudnnGetConvolutionForwardAlgorithm_v7_t cudnnGetConvolutionForwardAlgorithm_v7 = nullptr;
    abi::cudnnGetConvolutionForwardWorkspaceSize_t cudnnGetConvolutionForwardWorkspaceSize =
        nullptr;
    abi::cudnnConvolutionForward_t cudnnConvolutionForward = nullptr;

    bool bind(DynLib& lib);
    std::string name(abi::cudnnStatus_t status) const;
};

}  // namespace cuvet::probe
