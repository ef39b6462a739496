#pragma once
// The few CUDA driver, CUDA runtime and cuDNN types and entry points the probe
// calls, declared here instead of taken from the toolkit headers.
//
// Why our own declarations: the probe never links against libcuda, libcudart
// or libcudnn (it dlopen()s the image's own copies by path), so it only needs
// the C ABI: enum values, handle types and function signatures. Declaring them
// lets the probe build on machines without the CUDA Toolkit (CI), so the
// runners are tested end to end there. Every declaration below is part of the
// stable C ABI of CUDA >= 11 and cuDNN >= 8; abi_check.cpp static_asserts each
// one against the real headers whenever the toolkit is present.
#include <cstddef>

namespace cuvet::probe::abi {

// ---- CUDA driver API (libcuda.so.1) ----
using CUresult = int;
using CUdevice = int;
inline constexpr CUresult CUDA_SUCCESS = 0;
inline constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
inline constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;

using cuInit_t = CUresult (*)(unsigned int flags);
using cuDriverGetVersion_t = CUresult (*)(int* version);
using cuDeviceGetCount_t = CUresult (*)(int* count);
using cuDeviceGet_t = CUresult (*)(CUdevice* device, int ordinal);
using cuDeviceGetName_t = CUresult (*)(char* name, int len, CUdevice device);
using cuDeviceGetAttribute_t = CUresult (*)(int* value, int attribute, CUdevice device);
using cuDeviceTotalMem_t = CUresult (*)(std::size_t* bytes,
                                        CUdevice device);  // cuDeviceTotalMem_v2
using cuGetErrorName_t = CUresult (*)(CUresult error, const char** name);

// ---- CUDA runtime API (libcudart.so.N) ----
using cudaError_t = int;
inline constexpr cudaError_t cudaSuccess = 0;
inline constexpr int cudaMemcpyHostToDevice = 1;
inline constexpr int cudaMemcpyDeviceToHost = 2;

using cudaRuntimeGetVersion_t = cudaError_t (*)(int* version);
using cudaDriverGetVersion_t = cudaError_t (*)(int* version);
using cudaGetDeviceCount_t = cudaError_t (*)(int* count);
using cudaSetDevice_t = cudaError_t (*)(int device);
using cudaMalloc_t = cudaError_t (*)(void** pointer, std::size_t bytes);
using cudaFree_t = cudaError_t (*)(void* pointer);
using cudaMemcpy_t = cudaError_t (*)(void* dst, const void* src, std::size_t bytes, int kind);
using cudaDeviceSynchronize_t = cudaError_t (*)();
using cudaGetErrorName_t = const char* (*)(cudaError_t error);
using cudaGetErrorString_t = const char* (*)(cudaError_t error);

// ---- cuDNN legacy (v7-style) API, exported by libcudnn.so.8 and .9 ----
using cudnnStatus_t = int;
inline constexpr cudnnStatus_t CUDNN_STATUS_SUCCESS = 0;
struct cudnnContext;
struct cudnnTensorStruct;
struct cudnnFilterStruct;
struct cudnnConvolutionStruct;
using cudnnHandle_t = cudnnContext*;
using cudnnTensorDescriptor_t = cudnnTensorStruct*;
using cudnnFilterDescriptor_t = cudnnFilterStruct*;
using cudnnConvolutionDescriptor_t = cudnnConvolutionStruct*;

enum cudnnDataType_t : int { CUDNN_DATA_FLOAT = 0, CUDNN_DATA_HALF = 2 };
enum cudnnTensorFormat_t : int { CUDNN_TENSOR_NCHW = 0 };
enum cudnnConvolutionMode_t : int { CUDNN_CROSS_CORRELATION = 1 };
enum cudnnMathType_t : int {
    CUDNN_DEFAULT_MATH = 0,
    CUDNN_TENSOR_OP_MATH = 1,
    CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION = 2,
    CUDNN_FMA_MATH = 3,
};
using cudnnConvolutionFwdAlgo_t = int;
using cudnnDeterminism_t = int;

struct cudnnConvolutionFwdAlgoPerf_t {
    cudnnConvolutionFwdAlgo_t algo;
    cudnnStatus_t status;
    float time;
    std::size_t memory;
    cudnnDeterminism_t determinism;
    cudnnMathType_t mathType;
    int reserved[3];
};

using cudnnGetVersion_t = std::size_t (*)();
using cudnnGetCudartVersion_t = std::size_t (*)();
using cudnnGetErrorString_t = const char* (*)(cudnnStatus_t status);
using cudnnCreate_t = cudnnStatus_t (*)(cudnnHandle_t* handle);
using cudnnDestroy_t = cudnnStatus_t (*)(cudnnHandle_t handle);
using cudnnCreateTensorDescriptor_t = cudnnStatus_t (*)(cudnnTensorDescriptor_t* desc);
using cudnnDestroyTensorDescriptor_t = cudnnStatus_t (*)(cudnnTensorDescriptor_t desc);
using cudnnSetTensor4dDescriptor_t = cudnnStatus_t (*)(cudnnTensorDescriptor_t desc,
                                                       cudnnTensorFormat_t format,
                                                       cudnnDataType_t type, int n, int c, int h,
                                                       int w);
using cudnnCreateFilterDescriptor_t = cudnnStatus_t (*)(cudnnFilterDescriptor_t* desc);
using cudnnDestroyFilterDescriptor_t = cudnnStatus_t (*)(cudnnFilterDescriptor_t desc);
using cudnnSetFilter4dDescriptor_t = cudnnStatus_t (*)(cudnnFilterDescriptor_t desc,
                                                       cudnnDataType_t type,
                                                       cudnnTensorFormat_t format, int k, int c,
                                                       int h, int w);
using cudnnCreateConvolutionDescriptor_t = cudnnStatus_t (*)(cudnnConvolutionDescriptor_t* desc);
using cudnnDestroyConvolutionDescriptor_t = cudnnStatus_t (*)(cudnnConvolutionDescriptor_t desc);
using cudnnSetConvolution2dDescriptor_t = cudnnStatus_t (*)(cudnnConvolutionDescriptor_t desc,
                                                            int pad_h, int pad_w, int u, int v,
                                                            int dilation_h, int dilation_w,
                                                            cudnnConvolutionMode_t mode,
                                                            cudnnDataType_t compute_type);
using cudnnSetConvolutionMathType_t = cudnnStatus_t (*)(cudnnConvolutionDescriptor_t desc,
                                                        cudnnMathType_t math);
using cudnnGetConvolution2dForwardOutputDim_t =
    cudnnStatus_t (*)(const cudnnConvolutionDescriptor_t desc, const cudnnTensorDescriptor_t input,
                      const cudnnFilterDescriptor_t filter, int* n, int* c, int* h, int* w);
using cudnnGetConvolutionForwardAlgorithm_v7_t = cudnnStatus_t (*)(
    cudnnHandle_t handle, const cudnnTensorDescriptor_t x, const cudnnFilterDescriptor_t w,
    const cudnnConvolutionDescriptor_t conv, const cudnnTensorDescriptor_t y, const int requested,
    int* returned, cudnnConvolutionFwdAlgoPerf_t* results);
using cudnnGetConvolutionForwardWorkspaceSize_t = cudnnStatus_t (*)(
    cudnnHandle_t handle, const cudnnTensorDescriptor_t x, const cudnnFilterDescriptor_t w,
    const cudnnConvolutionDescriptor_t conv, const cudnnTensorDescriptor_t y,
    cudnnConvolutionFwdAlgo_t algo, std::size_t* bytes);
using cudnnConvolutionForward_t = cudnnStatus_t (*)(
    cudnnHandle_t handle, const void* alpha, const cudnnTensorDescriptor_t x_desc, const void* x,
    const cudnnFilterDescriptor_t w_desc, const void* w, const cudnnConvolutionDescriptor_t conv,
    cudnnConvolutionFwdAlgo_t algo, void* workspace, std::size_t workspace_bytes, const void* beta,
    const cudnnTensorDescriptor_t y_desc, void* y);

}  // namespace cuvet::probe::abi
