// CuPy's own failures: cuda-pathfinder finds no NVRTC or cuBLAS (CUV015), NVRTC finds no CUDA
// headers (CUV016), in the words CuPy 14 prints.
#include "findings.hpp"
#include "model_support.hpp"

namespace cuvet::frameworks::detail {

using stack::FrameworkInstall;

// CuPy 14 finds its libraries through cuda-pathfinder when a feature first
// needs them; its error names every soname it would have taken.
std::vector<report::Finding> cupy_gpu_library_findings(const stack::Stack&, const rules::Database&,
                                                       const FrameworkInstall& fw) {
    std::vector<report::Finding> out;
    int major = fw.built_cuda ? fw.built_cuda->major() : 0;
    bool blas_reported = false;
    for (const auto& load : fw.loads) {
        if (!fails_to_load(load)) continue;
        bool blas = starts_with(load.component, "cuBLAS");
        if (blas && blas_reported) continue;
        blas_reported = blas_reported || blas;
        const auto& r = load.resolution;
        report::Finding f;
        std::string error = load.component == "NVRTC" ? "DynamicLibNotFoundError" : "ImportError";
        f.message =
            "cupy " + fw.version.str() + " (" + fw.gpu_package + ") finds no " + load.component +
            " (" + r.name + (load.missing.empty() ? "" : "; " + load.missing.front()) + "), so " +
            (load.component == "NVRTC" ? "no kernel compiles (every elementwise operation fails)"
                                       : "matrix products fail") +
            ": \"" + error + ": Failure finding \\\"" + r.name + "\\\"\"";
        f.locations = {{fw.root}};
        add_trace(f, r);
        for (const auto& m : load.missing) f.evidence.push_back("does not resolve: " + m);
        std::string wheel = load.component == "NVRTC" ? "nvidia-cuda-nvrtc" : "nvidia-cublas";
        if (major < 13) wheel += "-cu" + std::to_string(major);
        f.fix = "pip install " + wheel + " (or pip install '" +
                fw.gpu_package.substr(0, fw.gpu_package.find(' ')) + "[ctk]'), or put a CUDA " +
                std::to_string(major) + " " + load.component + " where ld.so finds it.";
        out.push_back(std::move(f));
    }
    return out;
}

std::vector<report::Finding> cupy_gpu_compiler_findings(const stack::Stack&, const rules::Database&,
                                                        const FrameworkInstall& fw) {
    const auto* headers = framework_tool(fw, "CUDA headers");
    if (headers == nullptr || !headers->path.empty()) return {};
    report::Finding f;
    // CuPy 14's own words (testdata/gpu/env/framework_variants.log, the runtime wheel
    // removed).
    f.message = "cupy " + fw.version.str() + " (" + fw.gpu_package +
                ") finds no CUDA headers, so no kernel compiles: \"RuntimeError: Failed to "
                "find CUDA headers. "
                "Please install CUDA toolkit headers (e.g., pip install cupy-cuda12x[ctk]) "
                "or specify CUDA_PATH "
                "environment variable.\"";
    f.locations = {{fw.root}};
    add_searched(f, *headers);
    std::string major = fw.built_cuda ? std::to_string(fw.built_cuda->major()) : "";
    f.fix = "pip install nvidia-cuda-runtime" + std::string(major == "13" ? "" : "-cu" + major) +
            " (or '" + fw.gpu_package.substr(0, fw.gpu_package.find(' ')) +
            "[ctk]'), or set CUDA_PATH to a CUDA " + major + " toolkit.";
    return {std::move(f)};
}

}  // namespace cuvet::frameworks::detail
