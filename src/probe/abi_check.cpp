// Compile-time proof that cuda_abi.hpp matches the real CUDA and cuDNN
// headers. Built only when the CUDA Toolkit is found; it holds no code.
//
// Handle types differ by name (our cudnnContext is not theirs), so signatures
// are compared shape by shape: same arity, and every parameter and the result
// of the same size and kind (pointer, integer, floating point).
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cudnn.h>

#include <cstddef>
#include <type_traits>

#include "cuda_abi.hpp"

namespace {

template <class A, class B>
constexpr bool same_shape_v =
    sizeof(A) == sizeof(B) && std::is_pointer_v<A> ==
                                  std::is_pointer_v<B>&& std::is_floating_point_v<A> ==
                                  std::is_floating_point_v<B>;

template <class F, class G>
struct SameSignature : std::false_type {};

template <class R1, class... A1, class R2, class... A2>
struct SameSignature<R1 (*)(A1...), R2 (*)(A2...)> {
    static constexpr bool value = [] {
        if constexpr (sizeof...(A1) != sizeof...(A2)) {
            return false;
        } else {
            bool result = std::is_void_v<R1> == std::is_void_v<R2>;
            if constexpr (!std::is_void_v<R1> && !std::is_void_v<R2>)
                result = result && same_shape_v<R1, R2>;
            return result && (same_shape_v<A1, A2> && ...);
        }
    }();
};

#define CUVET_SAME(ours, theirs)                                                        \
    static_assert(SameSignature<cuvet::probe::abi::ours##_t, decltype(&theirs)>::value, \
                  #ours " differs from the header")

namespace abi = cuvet::probe::abi;

CUVET_SAME(cuInit, ::cuInit);
CUVET_SAME(cuDriverGetVersion, ::cuDriverGetVersion);
CUVET_SAME(cuDeviceGetCount, ::cuDeviceGetCount);
CUVET_SAME(cuDeviceGet, ::cuDeviceGet);
CUVET_SAME(cuDeviceGetName, ::cuDeviceGetName);
CUVET_SAME(cuDeviceGetAttribute, ::cuDeviceGetAttribute);
CUVET_SAME(cuDeviceTotalMem, ::cuDeviceTotalMem_v2);
CUVET_SAME(cuGetErrorName, ::cuGetErrorName);
static_assert(abi::CUDA_SUCCESS == ::CUDA_SUCCESS);
static_assert(abi::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR ==
              ::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
static_assert(abi::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR ==
              ::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);

CUVET_SAME(cudaRuntimeGetVersion, ::cudaRuntimeGetVersion);
CUVET_SAME(cudaDriverGetVersion, ::cudaDriverGetVersion);
CUVET_SAME(cudaGetDeviceCount, ::cudaGetDeviceCount);
CUVET_SAME(cudaSetDevice, ::cudaSetDevice);
CUVET_SAME(cudaFree, ::cudaFree);
CUVET_SAME(cudaMemcpy, ::cudaMemcpy);
CUVET_SAME(cudaDeviceSynchronize, ::cudaDeviceSynchronize);
CUVET_SAME(cudaGetErrorName, ::cudaGetErrorName);
CUVET_SAME(cudaGetErrorString, ::cudaGetErrorString);
// cudaMalloc is a template overload set in C++; take the C declaration.
static_assert(SameSignature<abi::cudaMalloc_t, cudaError_t (*)(void**, size_t)>::value);
static_assert(abi::cudaSuccess == ::cudaSuccess);
static_assert(abi::cudaMemcpyHostToDevice == ::cudaMemcpyHostToDevice);
static_assert(abi::cudaMemcpyDeviceToHost == ::cudaMemcpyDeviceToHost);

CUVET_SAME(cudnnGetVersion, ::cudnnGetVersion);
CUVET_SAME(cudnnGetCudartVersion, ::cudnnGetCudartVersion);
CUVET_SAME(cudnnGetErrorString, ::cudnnGetErrorString);
CUVET_SAME(cudnnCreate, ::cudnnCreate);
CUVET_SAME(cudnnDestroy, ::cudnnDestroy);
CUVET_SAME(cudnnCreateTensorDescriptor, ::cudnnCreateTensorDescriptor);
CUVET_SAME(cudnnDestroyTensorDescriptor, ::cudnnDestroyTensorDescriptor);
CUVET_SAME(cudnnSetTensor4dDescriptor, ::cudnnSetTensor4dDescriptor);
CUVET_SAME(cudnnCreateFilterDescriptor, ::cudnnCreateFilterDescriptor);
CUVET_SAME(cudnnDestroyFilterDescriptor, ::cudnnDestroyFilterDescriptor);
CUVET_SAME(cudnnSetFilter4dDescriptor, ::cudnnSetFilter4dDescriptor);
CUVET_SAME(cudnnCreateConvolutionDescriptor, ::cudnnCreateConvolutionDescriptor);
CUVET_SAME(cudnnDestroyConvolutionDescriptor, ::cudnnDestroyConvolutionDescriptor);
CUVET_SAME(cudnnSetConvolution2dDescriptor, ::cudnnSetConvolution2dDescriptor);
CUVET_SAME(cudnnSetConvolutionMathType, ::cudnnSetConvolutionMathType);
CUVET_SAME(cudnnGetConvolution2dForwardOutputDim, ::cudnnGetConvolution2dForwardOutputDim);
CUVET_SAME(cudnnGetConvolutionForwardAlgorithm_v7, ::cudnnGetConvolutionForwardAlgorithm_v7);
CUVET_SAME(cudnnGetConvolutionForwardWorkspaceSize, ::cudnnGetConvolutionForwardWorkspaceSize);
CUVET_SAME(cudnnConvolutionForward, ::cudnnConvolutionForward);

static_assert(abi::CUDNN_STATUS_SUCCESS == ::CUDNN_STATUS_SUCCESS);
static_assert(abi::CUDNN_DATA_FLOAT == static_cast<int>(::CUDNN_DATA_FLOAT));
static_assert(abi::CUDNN_DATA_HALF == static_cast<int>(::CUDNN_DATA_HALF));
static_assert(abi::CUDNN_TENSOR_NCHW == static_cast<int>(::CUDNN_TENSOR_NCHW));
static_assert(abi::CUDNN_CROSS_CORRELATION == static_cast<int>(::CUDNN_CROSS_CORRELATION));
static_assert(abi::CUDNN_DEFAULT_MATH == static_cast<int>(::CUDNN_DEFAULT_MATH));
static_assert(abi::CUDNN_TENSOR_OP_MATH == static_cast<int>(::CUDNN_TENSOR_OP_MATH));
static_assert(abi::CUDNN_FMA_MATH == static_cast<int>(::CUDNN_FMA_MATH));
static_assert(sizeof(abi::cudnnDataType_t) == sizeof(::cudnnDataType_t));
static_assert(sizeof(abi::cudnnMathType_t) == sizeof(::cudnnMathType_t));

using TheirPerf = ::cudnnConvolutionFwdAlgoPerf_t;
using OurPerf = abi::cudnnConvolutionFwdAlgoPerf_t;
static_assert(sizeof(OurPerf) == sizeof(TheirPerf));
static_assert(offsetof(OurPerf, algo) == offsetof(TheirPerf, algo));
static_assert(offsetof(OurPerf, status) == offsetof(TheirPerf, status));
static_assert(offsetof(OurPerf, time) == offsetof(TheirPerf, time));
static_assert(offsetof(OurPerf, memory) == offsetof(TheirPerf, memory));
static_assert(offsetof(OurPerf, mathType) == offsetof(TheirPerf, mathType));

}  // namespace
