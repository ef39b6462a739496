// ONNX Runtime: its live smoke test (a one-node Conv model on the
// CUDAExecutionProvider) and the words its provider fails with.
#include "cuvet/frameworks/framework.hpp"
#include "findings.hpp"

namespace cuvet::frameworks {

namespace {

std::string fix_gpu_session(const SmokeWords&) {
    return "install onnxruntime-gpu built for the image's CUDA major, with the cuDNN and "
           "cuBLAS it links";
}

}  // namespace

const Framework& onnxruntime() {
    static const Framework framework{
        .name = "onnxruntime",
        .display = "ONNX Runtime",
        .component = "onnxruntime",
        .smoke = "onnxruntime",
        .aliases = {"ort", "onnx"},
        .error_markers = {"not in available provider names",  // a build without the CUDA provider
                          "Failed to create CUDAExecutionProvider"},  // GPU build, provider failed
        .cpu_fallback =
            "the session runs on CPUExecutionProvider, not the CUDAExecutionProvider it asked for",
        .fix_last = fix_gpu_session,
        .gpu_library_findings = detail::onnxruntime_gpu_library_findings,
    };
    return framework;
}

}  // namespace cuvet::frameworks
