// CUVL10: a GPU package that loads the system's CUDA libraries on a base
// image that has none.
#include "checks/lint/lint_support.hpp"
#include "cuvet/checks/registry.hpp"

namespace cuvet::checks {
namespace {

// Bases known to ship no CUDA libraries: Docker official images and the
// nvidia/cuda "base" flavour (cudart only, no cuBLAS/cuDNN).
bool known_without_cuda(const dockerfile::BaseFacts& base) {
    if (base.kind == dockerfile::BaseKind::nvidia_cuda) return base.flavor == "base";
    return base.kind == dockerfile::BaseKind::other && base.image.registry == "docker.io" &&
           base.image.repository.starts_with("library/");
}

std::vector<report::Finding> run(const dockerfile::Facts& facts, const rules::Database& db) {
    std::vector<report::Finding> out;
    const auto& stage = facts.final_stage();
    if (!known_without_cuda(stage.base)) return out;
    for (const auto& p : stage.packages) {
        // Anything that brings CUDA libraries along makes the system ones unnecessary.
        auto wheel = lint::wheel_stack(p, db);
        if ((wheel && wheel->bundles_libraries && !wheel->cpu_only) ||
            (p.manager == dockerfile::Manager::conda && !p.cuda.empty()) ||
            (p.manager == dockerfile::Manager::apt &&
             (p.name.starts_with("cuda-") || lint::is_cudnn_package(p)))) {
            return out;
        }
    }
    for (const auto& p : stage.packages) {
        auto wheel = lint::wheel_stack(p, db);
        if (!wheel || wheel->bundles_libraries || wheel->cpu_only) continue;
        if (wheel->framework == "tensorflow" && p.name != "tensorflow") continue;
        auto f = lint::finding(facts, "CUVL10", p.line, p.end_line);
        f.severity = report::Severity::error;
        f.message = p.word + " loads libcudart, libcublas and libcudnn from the system, but " +
                    stage.base.reference +
                    " ships no CUDA libraries and nothing in this Dockerfile "
                    "installs them: the GPU code fails to load at run time (onnxruntime and "
                    "TensorFlow then run on the CPU, with only a log line to say so).";
        f.fix =
            "Build on a CUDA runtime image with cuDNN (nvidia/cuda:<cuda>-cudnn-runtime-<os>) that "
            "matches the package's CUDA, or install the variant that bundles its libraries "
            "(tensorflow[and-cuda], cupy-cuda12x[ctk], the nvidia-*-cu12 wheels).";
        out.push_back(std::move(f));
    }
    return out;
}

CheckInfo info() {
    CheckInfo i;
    i.id = "CUVL10";
    i.name = "system-cuda-missing";
    i.severity = report::Severity::error;
    i.title = "GPU package needs system CUDA libraries the base image lacks";
    i.rationale =
        "onnxruntime-gpu, cupy and plain tensorflow dlopen the system's CUDA and cuDNN; "
        "on an image without them the GPU path silently never runs.";
    i.failing_example = "FROM python:3.11-slim\nRUN pip install onnxruntime-gpu==1.19.2";
    i.passing_example =
        "FROM nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04\nRUN pip install "
        "onnxruntime-gpu==1.19.2";
    i.fix = "Use a CUDA runtime base with cuDNN, or a variant that bundles its libraries.";
    return i;
}

}  // namespace

extern const LintCheck cuvl10_system_cuda_missing;
const LintCheck cuvl10_system_cuda_missing{info(), &run};

}  // namespace cuvet::checks
