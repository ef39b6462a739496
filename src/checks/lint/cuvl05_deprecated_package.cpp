// CUVL05: packages that are deprecated or were removed.
#include <optional>

#include "checks/lint/lint_support.hpp"
#include "cuvet/checks/registry.hpp"

namespace cuvet::checks {
namespace cuvl05 {

std::optional<report::Finding> tensorflow_gpu(const dockerfile::Facts& facts,
                                              const dockerfile::Package& p) {
    // Before 2.1 tensorflow-gpu *was* the GPU build: replacing it with tensorflow drops the GPU.
    // The release in front of a local (+…) or pre-release (2.0.0b0, 2.12.0rc1) suffix: a
    // pinned beta is still a pin.
    const std::string text = p.version.substr(0, p.version.find('+'));
    const auto version =
        rules::Version::parse(text.substr(0, text.find_first_not_of("0123456789.")));
    if (version && *version < rules::Version::parse("2.1").value()) return std::nullopt;
    auto f = lint::finding(facts, "CUVL05", p.line, p.end_line);
    f.severity = report::Severity::warning;
    f.message =
        version ? "tensorflow-gpu " + version->str() +
                      " is a retired name: since 2.1 the tensorflow "
                      "package runs on GPUs, and tensorflow-gpu releases stopped in 2022."
                : "unpinned tensorflow-gpu takes its last release, which only fails the install "
                  "('tensorflow-gpu has been removed'), or an old 2.x on older Pythons.";
    f.evidence.push_back("tensorflow-gpu " + (version ? version->str() : std::string("unpinned")) +
                         "; TensorFlow 2.1 and later ship GPU support in the tensorflow package");
    f.fix = "Install tensorflow" + (version ? "==" + version->str() : std::string("==<version>")) +
            " (system CUDA) or tensorflow[and-cuda] (bundled CUDA, 2.14+).";
    return f;
}

std::vector<report::Finding> run(const dockerfile::Facts& facts, const rules::Database&) {
    std::vector<report::Finding> out;
    for (const auto& stage : facts.stages) {
        const dockerfile::Package* ort_cpu = nullptr;
        const dockerfile::Package* ort_gpu = nullptr;
        for (const auto& p : stage.packages) {
            if (p.manager != dockerfile::Manager::pip) continue;
            if (p.name == "onnxruntime") ort_cpu = &p;
            if (p.name == "onnxruntime-gpu") ort_gpu = &p;
            if (p.inherited) continue;
            if (p.name == "tensorflow-gpu") {
                if (auto f = tensorflow_gpu(facts, p)) out.push_back(std::move(*f));
            } else if (p.name == "pytorch") {
                auto f = lint::finding(facts, "CUVL05", p.line, p.end_line);
                f.severity = report::Severity::error;
                f.message = "pip installs " + p.word +
                            ": on PyPI 'pytorch' is a placeholder that fails the build "
                            "('You tried to install \"pytorch\". The package named for PyTorch is "
                            "\"torch\"').";
                f.fix = "Install torch" +
                        (p.version.empty() ? std::string() : " (torch==" + p.version + ")") +
                        " from the CUDA index that matches the base image.";
                out.push_back(std::move(f));
            }
        }
        if (ort_cpu && ort_gpu && !(ort_cpu->inherited && ort_gpu->inherited)) {
            const auto& later = ort_cpu->line > ort_gpu->line ? *ort_cpu : *ort_gpu;
            auto f = lint::finding(facts, "CUVL05", later.line, later.end_line);
            f.severity = report::Severity::warning;
            f.message =
                "onnxruntime and onnxruntime-gpu are both installed: they ship the same "
                "onnxruntime "
                "module, and with the CPU package's files on top CUDAExecutionProvider is missing.";
            f.evidence.push_back(ort_cpu->word + " (line " + std::to_string(ort_cpu->line) + "), " +
                                 ort_gpu->word + " (line " + std::to_string(ort_gpu->line) + ")");
            f.fix =
                "Install only onnxruntime-gpu (uninstall onnxruntime first if a dependency pulls "
                "it in).";
            out.push_back(std::move(f));
        }
    }
    return out;
}

CheckInfo info() {
    CheckInfo i;
    i.id = "CUVL05";
    i.name = "deprecated-package";
    i.severity = report::Severity::warning;
    return i;
}

}  // namespace cuvl05

extern const LintCheck cuvl05_deprecated_package;
const LintCheck cuvl05_deprecated_package{cuvl05::info(), &cuvl05::run};

}  // namespace cuvet::checks
