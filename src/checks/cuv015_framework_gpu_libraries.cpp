// CUV015 framework-gpu-libraries
#include "check_util.hpp"
#include "checks.hpp"
#include "cuvet/frameworks/framework.hpp"

namespace cuvet::checks {

namespace cuv015 {

// Each framework opens its GPU libraries its own way and fails in its own words: the
// framework judges (Framework::gpu_library_findings, src/frameworks/<name>_findings.cpp).
std::vector<report::Finding> run(const Stack& stack, const rules::Database& db) {
    std::vector<report::Finding> out;
    for (const auto& fw : stack.frameworks) {
        const auto* framework = fw.model;
        if (framework == nullptr || framework->gpu_library_findings == nullptr) continue;
        util::ImportedBy imported_by{out, fw};
        for (auto& f : framework->gpu_library_findings(stack, db, fw)) out.push_back(std::move(f));
    }
    return out;
}

}  // namespace cuv015

const ValidateCheck cuv015_framework_gpu_libraries{
    CheckInfo{
        .id = "CUV015",
        .severity = report::Severity::error,
        .title = "A GPU framework cannot load the CUDA libraries it opens itself, and falls back "
                 "to the CPU",
        .rationale =
            "ONNX Runtime opens libonnxruntime_providers_cuda.so when a session asks for the CUDA "
            "provider; if ld.so cannot resolve one of its DT_NEEDED (libcublasLt.so.12, "
            "libcudnn.so.9), ORT logs \"Failed to create CUDAExecutionProvider. Require cuDNN 9.* "
            "and CUDA 12.*\" and runs the session on the CPU. JAX's CUDA plugin opens cudart, "
            "cuDNN, cuFFT, cuPTI, cuBLAS and cuSPARSE itself at start-up: first by path from the "
            "nvidia wheel dirs (site-packages/nvidia/cu13/lib, nvidia/cudnn/lib), then by soname "
            "through ld.so from jax_cudaNN_plugin/_versions.so, whose RPATH names those dirs. A "
            "library that is missing, or whose own dependencies are (libcusparse.so.12 needs "
            "libnvJitLink.so.13), stops the plugin with \"Unable to load cuSPARSE. Is it "
            "installed?\"; JAX logs it and runs everything on the CPU. A jaxlib without any CUDA "
            "plugin does the same. CuPy 14 opens NVRTC (for every kernel) and cuBLAS through "
            "cuda-pathfinder, from the nvidia wheel dir or ld.so; without them its first "
            "elementwise operation or matmul raises \"Failure finding \\\"libnvrtc.so.13 or "
            "libnvrtc.so.12\\\"\". JAX and ONNX Runtime still exit 0: the GPU the image was built "
            "for sits idle.",
        .failing_example =
            "FROM python:3.12\nRUN pip install 'jax[cuda13]' && pip uninstall -y "
            "nvidia-cusparse\n# → CUV015 jax cannot load cuSPARSE and runs on the CPU",
        .passing_example = "FROM python:3.12\nRUN pip install 'jax[cuda13]'",
        .fix = "Install the framework's CUDA extra (pip install 'jax[cuda13]'), which brings every "
               "NVIDIA wheel its plugin opens, or make the missing library reachable by ld.so.",
        .name = "framework-gpu-libraries",
    },
    &cuv015::run,
};

}  // namespace cuvet::checks
