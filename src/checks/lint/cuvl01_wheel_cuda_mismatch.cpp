// CUVL01: a framework wheel (or conda CUDA package) built for a CUDA/cuDNN
// other than the base image provides.
#include <set>

#include "checks/lint/lint_support.hpp"
#include "cuvet/checks/registry.hpp"

namespace cuvet::checks {
namespace {

using dockerfile::Manager;

// CUDA 11 kept one soname for all minors with a ".0" suffix; 12 and 13 use the major alone.
std::string cudart_soname(int major) {
    return "libcudart.so." + std::to_string(major) + (major == 11 ? ".0" : "");
}

std::string describe(const dockerfile::Package& p) {
    return p.word.empty() ? p.name : p.word;
}

std::vector<report::Finding> run(const dockerfile::Facts& facts, const rules::Database& db) {
    std::vector<report::Finding> out;
    std::set<std::pair<int, std::string>> reported;  // torch, torchvision, torchaudio: once per RUN
    for (const auto& stage : facts.stages) {
        const lint::BaseStack base = lint::base_stack(stage.base, db);
        if (!base.cuda) continue;
        for (const auto& p : stage.packages) {
            if (p.inherited) continue;
            std::optional<lint::WheelStack> wheel;
            if (p.manager == Manager::conda && !p.cuda.empty()) {
                wheel = lint::WheelStack{p.name, rules::Version::parse(p.cuda), {}, {}, true, false,
                                         p.cuda_evidence};
            } else {
                wheel = lint::wheel_stack(p, db);
            }
            if (!wheel || wheel->cpu_only || !wheel->cuda) continue;
            if (!reported.insert({p.line, wheel->framework + wheel->cuda->str()}).second) continue;
            const bool cuda_differs = !lint::same_cuda(*base.cuda, *wheel->cuda);
            const bool cudnn_differs = base.cudnn_major && wheel->cudnn_major &&
                                       *base.cudnn_major != *wheel->cudnn_major;
            const std::string what = describe(p) + " is built for CUDA " + wheel->cuda->str() +
                                     (wheel->cudnn_major ? " / cuDNN " + std::to_string(*wheel->cudnn_major) : "") +
                                     " (" + wheel->evidence + ")";
            auto f = lint::finding(facts, "CUVL01", p.line, p.end_line);
            f.evidence.push_back("base " + base.description + ", from the " + base.evidence);
            f.evidence.push_back(what);
            if (wheel->bundles_libraries) {
                if (!cuda_differs && !cudnn_differs) continue;
                f.severity = report::Severity::warning;
                f.message = what + ", but the base image " + base.description +
                            " provides another stack. The wheel brings its own CUDA/cuDNN libraries "
                            "(nvidia-* packages), so the base image's copies are dead weight and are "
                            "not what runs; the host driver must support CUDA " + wheel->cuda->str() +
                            ", not " + base.cuda->str() +
                            "; and any LD_LIBRARY_PATH entry pointing at the base's library "
                            "directories makes the loader take the base's copies instead (undefined "
                            "symbol or cuDNN version mismatch at import).";
                f.fix = "Match the two: install the build for CUDA " + base.cuda->truncated(2).str() +
                        " (e.g. --index-url https://download.pytorch.org/whl/cu" +
                        std::to_string(base.cuda->major()) + std::to_string(base.cuda->minor()) +
                        "), or build on a base without CUDA libraries (nvidia/cuda:<ver>-base-… or "
                        "python:<ver>-slim) and let the wheel bring its own.";
            } else {
                const bool major_differs = base.cuda->major() != wheel->cuda->major();
                if (!major_differs && !cudnn_differs) continue;
                f.severity = report::Severity::error;
                f.message = what + " and loads the CUDA/cuDNN libraries of the system, but the base "
                            "image " + base.description + " provides " +
                            (major_differs ? "CUDA " + std::to_string(base.cuda->major()) + ".x: the "
                                             "CUDA " + std::to_string(wheel->cuda->major()) +
                                             " sonames (" + cudart_soname(wheel->cuda->major()) +
                                             ", libcublas.so." + std::to_string(wheel->cuda->major()) +
                                             ") will not be found"
                                           : "cuDNN " + std::to_string(*base.cudnn_major) +
                                             ": libcudnn.so." + std::to_string(*wheel->cudnn_major) +
                                             " will not be found") +
                            ", and the GPU path fails to load at run time (onnxruntime and "
                            "TensorFlow fall back to the CPU with only a log line).";
                f.fix = "Use a base image with CUDA " + wheel->cuda->str() +
                        (wheel->cudnn_major ? " and cuDNN " + std::to_string(*wheel->cudnn_major) : "") +
                        ", or pin a " + wheel->framework + " release built for CUDA " +
                        base.cuda->truncated(2).str() + ".";
            }
            out.push_back(std::move(f));
        }
    }
    return out;
}

CheckInfo info() {
    CheckInfo i;
    i.id = "CUVL01";
    i.name = "wheel-cuda-mismatch";
    i.severity = report::Severity::warning;
    i.title = "Framework build targets a CUDA/cuDNN other than the base image";
    i.rationale =
        "pip and conda framework builds are compiled for one CUDA (and cuDNN) release. Wheels that "
        "bundle their libraries (torch, tensorflow[and-cuda], jax[cuda12]) ignore the base image's "
        "copies, which then only cost gigabytes, while the driver must satisfy the wheel's CUDA; "
        "wheels that use the system libraries (onnxruntime-gpu, cupy, plain tensorflow) fail to "
        "load their GPU code when the major versions differ.";
    i.failing_example =
        "FROM nvidia/cuda:12.1.1-cudnn8-runtime-ubuntu22.04\n"
        "RUN pip install torch==2.1.0 --index-url https://download.pytorch.org/whl/cu118";
    i.passing_example =
        "FROM nvidia/cuda:12.1.1-cudnn8-runtime-ubuntu22.04\n"
        "RUN pip install torch==2.1.0 --index-url https://download.pytorch.org/whl/cu121";
    i.fix = "Install the framework build for the base image's CUDA, or use a base without CUDA "
            "libraries and let the wheel bring its own.";
    return i;
}

}  // namespace

extern const LintCheck cuvl01_wheel_cuda_mismatch;
const LintCheck cuvl01_wheel_cuda_mismatch{info(), &run};

}  // namespace cuvet::checks
