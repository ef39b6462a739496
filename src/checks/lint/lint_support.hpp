#pragma once
// Shared reading of Dockerfile facts against the rules database for the
// CUVLxx checks: what CUDA/cuDNN a base image provides, what CUDA a framework
// wheel was built for, and how a finding points at Dockerfile lines.
#include <optional>
#include <string>

#include "cuvet/dockerfile/facts.hpp"
#include "cuvet/report/finding.hpp"
#include "cuvet/rules/database.hpp"

namespace cuvet::checks::lint {

struct BaseStack {
    std::optional<rules::Version> cuda;
    std::optional<int> cudnn_major;
    std::optional<rules::Version> cudnn;
    bool cuda_libraries = false;  // ships cudart/cublas/… (runtime/devel), not just "base"
    std::string description;      // "nvidia/cuda:12.1.1-cudnn8-runtime-ubuntu22.04 (CUDA 12.1.1, cuDNN 8)"
    std::string evidence;         // how CUDA was learned: "tag", "NGC release table 24.01", …
};

// Unknown parts stay nullopt; an image we know nothing about yields no CUDA.
BaseStack base_stack(const dockerfile::BaseFacts& base, const rules::Database& db);

// The GPU framework families whose build decides the CUDA stack.
enum class Family { none, torch, tensorflow, jax, onnxruntime, cupy, paddle, tensorrt, nvidia_lib };
Family family_of(const dockerfile::Package& package);
bool is_framework(const dockerfile::Package& package);
bool is_cudnn_package(const dockerfile::Package& package);

struct WheelStack {
    std::string framework;  // "pytorch", "tensorflow", …
    std::optional<rules::Version> cuda;
    std::optional<int> cudnn_major;
    std::optional<rules::Version> cudnn;
    // True when the wheel brings its own CUDA/cuDNN (torch wheels, tensorflow[and-cuda],
    // jax[cudaNN], nvidia-* packages); false when it loads the system's.
    bool bundles_libraries = false;
    bool cpu_only = false;
    std::string evidence;
};

// pip packages only; nullopt for a non-GPU package.
std::optional<WheelStack> wheel_stack(const dockerfile::Package& package, const rules::Database& db);

// True when `a` and `b` name the same CUDA, where a one-component version
// ("12") covers every minor of that major.
bool same_cuda(const rules::Version& a, const rules::Version& b);

// A finding of check `id` at Dockerfile lines [line, end_line]. The id is set
// here so that the severity a check picks per finding is kept by the registry.
report::Finding finding(const dockerfile::Facts& facts, const std::string& id, int line, int end_line);

}  // namespace cuvet::checks::lint
