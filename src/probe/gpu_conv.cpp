#include "gpu_conv.hpp"

#include <cstdint>
#include <cstring>
#include <functional>

namespace cuvet::probe {
namespace {

// Runs the registered releases in reverse order, whatever stage failed.
class Cleanup {
public:
    ~Cleanup() {
        for (auto it = steps_.rbegin(); it != steps_.rend(); ++it) (*it)();
    }
    void add(std::function<void()> step) { steps_.push_back(std::move(step)); }

private:
    std::vector<std::function<void()>> steps_;
};

struct DeviceBuffers {
    void* x = nullptr;
    void* w = nullptr;
    void* y = nullptr;
};

std::vector<unsigned char> to_device_bytes(const std::vector<float>& values, bool half) {
    std::vector<unsigned char> bytes(values.size() * (half ? 2 : 4));
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (half) {
            const std::uint16_t h = float_to_half(values[i]);
            std::memcpy(&bytes[i * 2], &h, 2);
        } else {
            std::memcpy(&bytes[i * 4], &values[i], 4);
        }
    }
    return bytes;
}

std::vector<float> from_device_bytes(const std::vector<unsigned char>& bytes, bool half) {
    std::vector<float> values(bytes.size() / (half ? 2 : 4));
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (half) {
            std::uint16_t h;
            std::memcpy(&h, &bytes[i * 2], 2);
            values[i] = half_to_float(h);
        } else {
            std::memcpy(&values[i], &bytes[i * 4], 4);
        }
    }
    return values;
}

}  // namespace

ConvRun run_conv(const RuntimeApi& cuda, const CudnnApi& cudnn, abi::cudnnHandle_t handle,
                 bool half) {
    ConvRun run;
    run.half = half;
    run.tolerance = half ? half_tolerance : float_tolerance;
    const ConvShape shape;
    const std::vector<float> input = probe_values(shape.input_count(), 1);
    const std::vector<float> filter = probe_values(shape.filter_count(), 2);
    const abi::cudnnDataType_t type = half ? abi::CUDNN_DATA_HALF : abi::CUDNN_DATA_FLOAT;
    const std::size_t element = half ? 2 : 4;

    auto failed_cudnn = [&](const char* stage, abi::cudnnStatus_t status) {
        if (status == abi::CUDNN_STATUS_SUCCESS) return false;
        run.failed_stage = stage;
        run.status = cudnn.name(status);
        return true;
    };
    auto failed_cuda = [&](const char* stage, abi::cudaError_t status) {
        if (status == abi::cudaSuccess) return false;
        run.failed_stage = stage;
        run.status = cuda.name(status);
        return true;
    };

    Cleanup cleanup;
    abi::cudnnTensorDescriptor_t x_desc = nullptr, y_desc = nullptr;
    abi::cudnnFilterDescriptor_t w_desc = nullptr;
    abi::cudnnConvolutionDescriptor_t conv = nullptr;
    if (failed_cudnn("cudnnCreateTensorDescriptor", cudnn.cudnnCreateTensorDescriptor(&x_desc)))
        return run;
    cleanup.add([&] { cudnn.cudnnDestroyTensorDescriptor(x_desc); });
    if (failed_cudnn("cudnnCreateTensorDescriptor", cudnn.cudnnCreateTensorDescriptor(&y_desc)))
        return run;
    cleanup.add([&] { cudnn.cudnnDestroyTensorDescriptor(y_desc); });
    if (failed_cudnn("cudnnCreateFilterDescriptor", cudnn.cudnnCreateFilterDescriptor(&w_desc)))
        return run;
    cleanup.add([&] { cudnn.cudnnDestroyFilterDescriptor(w_desc); });
    if (failed_cudnn("cudnnCreateConvolutionDescriptor",
                     cudnn.cudnnCreateConvolutionDescriptor(&conv)))
        return run;
    cleanup.add([&] { cudnn.cudnnDestroyConvolutionDescriptor(conv); });

    if (failed_cudnn("cudnnSetTensor4dDescriptor",
                     cudnn.cudnnSetTensor4dDescriptor(x_desc, abi::CUDNN_TENSOR_NCHW, type, shape.n,
                                                      shape.c, shape.h, shape.w)))
        return run;
    if (failed_cudnn("cudnnSetFilter4dDescriptor",
                     cudnn.cudnnSetFilter4dDescriptor(w_desc, type, abi::CUDNN_TENSOR_NCHW, shape.k,
                                                      shape.c, shape.r, shape.s)))
        return run;
    // Half data accumulates in float (cuDNN's PSEUDO_HALF_CONFIG), as frameworks do.
    if (failed_cudnn("cudnnSetConvolution2dDescriptor",
                     cudnn.cudnnSetConvolution2dDescriptor(
                         conv, shape.pad, shape.pad, shape.stride, shape.stride, 1, 1,
                         abi::CUDNN_CROSS_CORRELATION, abi::CUDNN_DATA_FLOAT)))
        return run;
    // Float is pinned to FMA kernels so that Ampere+ does not silently use TF32;
    // half asks for tensor cores, which is what the half run is there to exercise.
    const abi::cudnnMathType_t math = half ? abi::CUDNN_TENSOR_OP_MATH : abi::CUDNN_FMA_MATH;
    if (failed_cudnn("cudnnSetConvolutionMathType", cudnn.cudnnSetConvolutionMathType(conv, math)))
        return run;

    int on = 0, oc = 0, oh = 0, ow = 0;
    if (failed_cudnn(
            "cudnnGetConvolution2dForwardOutputDim",
            cudnn.cudnnGetConvolution2dForwardOutputDim(conv, x_desc, w_desc, &on, &oc, &oh, &ow)))
        return run;
    if (on != shape.n || oc != shape.k || oh != shape.out_h() || ow != shape.out_w()) {
        run.failed_stage = "cudnnGetConvolution2dForwardOutputDim";
        run.status = "unexpected output shape " + std::to_string(on) + "x" + std::to_string(oc) +
                     "x" + std::to_string(oh) + "x" + std::to_string(ow);
        return run;
    }
    if (failed_cudnn(
            "cudnnSetTensor4dDescriptor",
            cudnn.cudnnSetTensor4dDescriptor(y_desc, abi::CUDNN_TENSOR_NCHW, type, on, oc, oh, ow)))
        return run;

    DeviceBuffers device;
    if (failed_cuda("cudaMalloc", cuda.cudaMalloc(&device.x, shape.input_count() * element)))
        return run;
    cleanup.add([&] { cuda.cudaFree(device.x); });
    if (failed_cuda("cudaMalloc", cuda.cudaMalloc(&device.w, shape.filter_count() * element)))
        return run;
    cleanup.add([&] { cuda.cudaFree(device.w); });
    if (failed_cuda("cudaMalloc", cuda.cudaMalloc(&device.y, shape.output_count() * element)))
        return run;
    cleanup.add([&] { cuda.cudaFree(device.y); });
    const auto x_bytes = to_device_bytes(input, half);
    const auto w_bytes = to_device_bytes(filter, half);
    if (failed_cuda("cudaMemcpy", cuda.cudaMemcpy(device.x, x_bytes.data(), x_bytes.size(),
                                                  abi::cudaMemcpyHostToDevice)))
        return run;
    if (failed_cuda("cudaMemcpy", cuda.cudaMemcpy(device.w, w_bytes.data(), w_bytes.size(),
                                                  abi::cudaMemcpyHostToDevice)))
        return run;

    abi::cudnnConvolutionFwdAlgoPerf_t perf[8] = {};
    int returned = 0;
    if (failed_cudnn("cudnnGetConvolutionForwardAlgorithm_v7",
                     cudnn.cudnnGetConvolutionForwardAlgorithm_v7(handle, x_desc, w_desc, conv,
                                                                  y_desc, 8, &returned, perf)))
        return run;

    const float alpha = 1.0f, beta = 0.0f;  // scaling factors are float for float and half data
    for (int i = 0; i < returned && !run.ran; ++i) {
        if (perf[i].status != abi::CUDNN_STATUS_SUCCESS) continue;
        std::size_t workspace_bytes = 0;
        abi::cudnnStatus_t status = cudnn.cudnnGetConvolutionForwardWorkspaceSize(
            handle, x_desc, w_desc, conv, y_desc, perf[i].algo, &workspace_bytes);
        void* workspace = nullptr;
        if (status == abi::CUDNN_STATUS_SUCCESS && workspace_bytes > 0 &&
            cuda.cudaMalloc(&workspace, workspace_bytes) != abi::cudaSuccess) {
            run.attempts.push_back("algo " + std::to_string(perf[i].algo) +
                                   ": cudaMalloc of workspace failed");
            continue;
        }
        if (status == abi::CUDNN_STATUS_SUCCESS) {
            status = cudnn.cudnnConvolutionForward(handle, &alpha, x_desc, device.x, w_desc,
                                                   device.w, conv, perf[i].algo, workspace,
                                                   workspace_bytes, &beta, y_desc, device.y);
        }
        const abi::cudaError_t synced =
            status == abi::CUDNN_STATUS_SUCCESS ? cuda.cudaDeviceSynchronize() : 0;
        if (workspace != nullptr) cuda.cudaFree(workspace);
        if (status != abi::CUDNN_STATUS_SUCCESS) {
            run.attempts.push_back("algo " + std::to_string(perf[i].algo) + ": " +
                                   cudnn.name(status));
            continue;
        }
        if (failed_cuda("cudaDeviceSynchronize", synced)) return run;
        run.ran = true;
        run.algo = perf[i].algo;
        run.math_type = perf[i].mathType;
        run.workspace = workspace_bytes;
    }
    if (!run.ran) {
        run.failed_stage = "cudnnConvolutionForward";
        run.status = returned == 0 ? "no algorithm offered" : "every offered algorithm failed";
        return run;
    }

    std::vector<unsigned char> y_bytes(shape.output_count() * element);
    if (failed_cuda("cudaMemcpy", cuda.cudaMemcpy(y_bytes.data(), device.y, y_bytes.size(),
                                                  abi::cudaMemcpyDeviceToHost)))
        return run;
    run.comparison = compare(conv_reference(shape, input, filter), from_device_bytes(y_bytes, half),
                             run.tolerance);
    run.ok = run.comparison.mismatches == 0;
    return run;
}

}  // namespace cuvet::probe
