// CUV016 framework-gpu-compiler
#include "check_util.hpp"
#include "checks.hpp"
#include "cuvet/frameworks/framework.hpp"

namespace cuvet::checks {

namespace cuv016 {

// What each framework compiles with, and how it fails without it, is its own: the framework
// judges (Framework::gpu_compiler_findings, src/frameworks/<name>_findings.cpp).
std::vector<report::Finding> run(const Stack& stack, const rules::Database& db) {
    std::vector<report::Finding> out;
    for (const auto& fw : stack.frameworks) {
        const auto* framework = fw.model;
        if (framework == nullptr || framework->gpu_compiler_findings == nullptr) continue;
        util::ImportedBy imported_by{out, fw};
        for (auto& f : framework->gpu_compiler_findings(stack, db, fw)) out.push_back(std::move(f));
    }
    return out;
}

}  // namespace cuv016

const ValidateCheck cuv016_framework_gpu_compiler{
    CheckInfo{
        .id = "CUV016",
        .severity = report::Severity::error,
        .title = "A GPU framework that compiles its kernels finds no PTX assembler, or one that "
                 "does not know the GPU",
        .rationale = "XLA (JAX) generates PTX and assembles it with ptxas at run time. It looks in "
                     "xla_gpu_cuda_data_dir (CUDA_ROOT, or site-packages/nvidia/cu13 when the "
                     "nvidia-cuda-nvcc wheel put bin/ptxas there), then every PATH dir, then "
                     "/usr/local/cuda, /opt/cuda and dirs relative to its plugin. A ptxas "
                     "elsewhere (torch/bin, triton's backend) is not used. Without one JAX starts "
                     "on the GPU and fails at the first jit: \"Failed to get configs for … No "
                     "candidates could be compiled.\" libdevice (nvvm/libdevice) is looked for in "
                     "the same roots. CuPy compiles its kernels with NVRTC and needs the CUDA "
                     "headers: the cuda-runtime wheel's include dir, CUDA_PATH, nvcc's toolkit on "
                     "PATH or /usr/local/cuda; without them: \"Failed to find CUDA headers\". "
                     "Triton (torch.compile) assembles with the ptxas its wheel bundles "
                     "(ptxas-blackwell from compute capability 10.0 where shipped), and that "
                     "ptxas must know the --gpu target: Triton 3.6's CUDA 12.9 ptxas-blackwell "
                     "has no sm_110a (Jetson Thor), a CUDA 13 ptxas no sm_70; the release is "
                     "read from the binary's --version banner. These are warnings: only "
                     "workloads that compile kernels fail.",
        .failing_example = "FROM python:3.12\nRUN pip install 'jax[cuda13-local]'   # the plugin "
                           "without the nvcc wheel\n# → CUV016 jax finds no ptxas where XLA looks",
        .passing_example =
            "FROM nvidia/cuda:13.0.2-cudnn-devel-ubuntu24.04\nRUN pip install 'jax[cuda13-local]'",
        .fix = "Install ptxas where XLA looks: pip install nvidia-cuda-nvcc (part of jax[cuda13]), "
               "a CUDA toolkit at /usr/local/cuda, or its bin dir on PATH.",
        .name = "framework-gpu-compiler",
    },
    &cuv016::run,
};

}  // namespace cuvet::checks
