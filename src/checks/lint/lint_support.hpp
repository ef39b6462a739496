#pragma once
// Shared reading of Dockerfile facts against the rules database for the
// CUVLxx checks: what CUDA/cuDNN a base image provides, what CUDA a framework
// wheel was built for, and how a finding points at Dockerfile lines.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cuvet/dockerfile/facts.hpp"
#include "cuvet/report/finding.hpp"
#include "cuvet/rules/database.hpp"
#include "cuvet/rules/framework_catalog.hpp"

namespace cuvet::checks::lint {

struct BaseStack {
    std::optional<rules::Version> cuda;
    std::optional<int> cudnn_major;
    std::optional<rules::Version> cudnn;
    bool cuda_libraries = false;  // ships cudart/cublas/… (runtime/devel), not just "base"
    std::string
        description;       // "nvidia/cuda:12.1.1-cudnn8-runtime-ubuntu22.04 (CUDA 12.1.1, cuDNN 8)"
    std::string evidence;  // how CUDA was learned: "tag", "NGC release table 24.01", …
};

// Unknown parts stay nullopt; an image we know nothing about yields no CUDA.
BaseStack base_stack(const dockerfile::BaseFacts& base, const rules::Database& db);

// The framework a pip package installs, by the wheel policies of the database's catalog
// (rules/frameworks.json as loaded: built in, --rules-dir or a pulled bundle;
// a pip spelling's "wheel"): its spelling, a companion (torchvision) or a placeholder name.
// nullopt when no framework's policy names it.
std::optional<rules::WheelMatch> framework_wheel(const dockerfile::Package& package,
                                                 const rules::Database& db);
bool is_framework(const dockerfile::Package& package, const rules::Database& db);
// NVIDIA's CUDA library wheels, named for their CUDA major: nvidia-cublas-cu12.
bool is_nvidia_library_wheel(const dockerfile::Package& package);
bool is_cudnn_package(const dockerfile::Package& package);
// cuDNN major from the package name or version: libcudnn8, libcudnn9-cuda-12, cudnn=8.9.
std::optional<int> cudnn_major(const dockerfile::Package& package);
// A pip/conda package whose build depends on a CUDA release: a framework, a GPU plugin
// or extension (xformers, flash-attn, bitsandbytes, …), a CUDA library wheel.
bool needs_cuda(const dockerfile::Package& package, const rules::Database& db);
// The stage clones a framework's own repository (git clone https://github.com/pytorch/pytorch):
// the catalog's name_words in the repository's name, or with `whole_name` the name itself
// (pytorch, incubator-mxnet; not PaddleDetection, a project built on Paddle).
bool clones_framework_repository(const dockerfile::Facts& facts, std::size_t stage,
                                 const rules::Database& db, bool whole_name);
// An extra that names a CUDA release (foo[cu13], foo[cuda12]; not a bare [cuda]): every
// release the install can take is that CUDA's build.
bool extra_fixes_cuda_major(const dockerfile::Package& package);
// "12.1" → "121"; "12" → "12".
std::string cuda_digits(const std::string& cuda);

struct WheelStack {
    std::string framework;  // the catalog's name: "pytorch"
    // The catalog policy it was read by; nullptr for NVIDIA library wheels and packages the
    // catalog knows only by the CUDA their name states.
    const rules::WheelPolicy* policy = nullptr;
    std::optional<rules::Version> cuda;
    std::optional<int> cudnn_major;
    std::optional<rules::Version> cudnn;
    // True when the wheel brings its own CUDA/cuDNN (torch wheels, tensorflow[and-cuda],
    // jax[cudaNN], nvidia-* packages); false when it loads the system's.
    bool bundles_libraries = false;
    bool cpu_only = false;
    // The build's GPU path starts without cuDNN (rules: `cudnn_optional`).
    bool cudnn_optional = false;
    // A build that bundles nothing dlopens the system's libcudnn (policy `system_cudnn`, not
    // for releases before its `cpu_before`).
    bool system_cudnn = false;
    std::string evidence;
};

// pip packages only; nullopt for a non-GPU package.
std::optional<WheelStack> wheel_stack(const dockerfile::Package& package,
                                      const rules::Database& db);

// The GPU framework release a package pins and so installs in front of it
// (spleeter-gpu==1.4.9 pulls tensorflow-gpu==1.14.0, rules/frameworks.json `requires`),
// as a pinned package on the same line; nullopt when the rules know no such pin or the
// stage installs that framework itself (then its own line decides the build).
std::optional<dockerfile::Package> pulled_framework(const dockerfile::Package& package,
                                                    const dockerfile::StageFacts& stage,
                                                    const rules::Database& db);

// True when `a` and `b` name the same CUDA, where a one-component version
// ("12") covers every minor of that major.
bool same_cuda(const rules::Version& a, const rules::Version& b);

// The final stage and every stage it is built FROM, final first: what ships.
std::vector<std::size_t> shipped_stages(const dockerfile::Facts& facts);

// The stage (or a stage it is built FROM) builds native code: nvcc, cmake, make,
// setup.py builds, editable/local-project installs, CUDA arch variables, or a
// JIT that needs the toolkit (jaxlib with the system CUDA, packages the rules mark
// needs_toolkit). A -devel base is then deliberate.
bool stage_builds_code(const dockerfile::Facts& facts, std::size_t stage,
                       const rules::Database& db);

// The RUN text of one instruction with its heredoc bodies, for keyword searches.
std::string run_text(const dockerfile::Facts& facts, const dockerfile::RunStep& run);

// NVIDIA's and the frameworks' naming convention: a name ending in -cuNN/-cuNNN or
// -cudaNN[x] states the CUDA build (nvidia-cublas-cu12, mxnet-cu112, cupy-cuda12x).
bool names_cuda_build(std::string_view name);

// pip installs a wheel file from a path in the image (dist/x.whl), not from an index or URL.
bool is_wheel_file(const dockerfile::Package& p);

// A CMake definition whose name ends in cuda or cublas, set on, in lower-cased text:
// -DLLAMA_CUBLAS=on, -DGGML_CUDA=ON, -DWITH_CUDA=1.
bool cmake_turns_cuda_on(const std::string& text);

// pip builds a package whose CUDA builds come only from its own index (llama-cpp-python) from
// its source release, with CMake's CUDA switch on (CMAKE_ARGS in the RUN or an earlier ENV).
bool builds_cuda_from_source(const dockerfile::Facts& facts, std::size_t stage,
                             const dockerfile::Package& p, const rules::Database& db);

std::string join(const std::vector<std::string>& items, const std::string& separator = " ");

// A finding of check `id` at Dockerfile lines [line, end_line]. The id is set
// here so that the severity a check picks per finding is kept by the registry.
report::Finding finding(const dockerfile::Facts& facts, const std::string& id, int line,
                        int end_line);

}  // namespace cuvet::checks::lint
