// CUVL10: a GPU package that loads the system's CUDA libraries on a base
// image that has none.
#include <algorithm>
#include <cctype>
#include <set>

#include "checks/lint/lint_support.hpp"
#include "cuvet/checks/registry.hpp"

namespace cuvet::checks {
namespace cuvl10 {

// Bases known to ship no CUDA libraries: Docker official images and the
// nvidia/cuda "base" flavour (cudart only, no cuBLAS/cuDNN).
// An unqualified name that is not one of these (`FROM l41-nvidia-base`) is usually an
// image built beside this one, not Docker Hub's: what it carries is unknown.
bool known_without_cuda(const dockerfile::BaseFacts& base) {
    if (base.kind == dockerfile::BaseKind::nvidia_cuda) return base.flavor == "base";
    if (base.kind != dockerfile::BaseKind::other || base.image.registry != "docker.io")
        return false;
    static const std::set<std::string> official = {
        "library/ubuntu",         "library/debian",    "library/python",
        "library/alpine",         "library/centos",    "library/rockylinux",
        "library/almalinux",      "library/fedora",    "library/amazonlinux",
        "library/oraclelinux",    "library/archlinux", "library/busybox",
        "library/buildpack-deps", "library/pypy",      "library/node",
        "library/golang",         "library/openjdk",   "library/eclipse-temurin",
        "library/r-base",         "library/julia",     "library/gcc"};
    return official.count(base.image.repository) > 0;
}

// nvidia/cuda runtime and devel tags without a cudnn token: CUDA's libraries, no cuDNN
// (NVIDIA publishes cuDNN only in the -cudnn flavours).
bool known_without_cudnn(const dockerfile::BaseFacts& base) {
    return base.kind == dockerfile::BaseKind::nvidia_cuda && base.cudnn_token.empty() &&
           (base.flavor == "runtime" || base.flavor == "devel");
}

// Several frameworks (ONNX Runtime, TensorFlow) do not fail when their GPU libraries are
// missing: they run on the CPU and log one line.
constexpr const char* cpu_fallback_note =
    "a framework that falls back to the CPU says so only in a log line";

// The install of the same package that bundles its CUDA libraries, by its policy's extras
// ("tensorflow[and-cuda]"), after `separator`; "" when it has none.
std::string bundled_variant(const dockerfile::Package& p, const lint::WheelStack& wheel,
                            const std::string& separator) {
    if (!wheel.policy || wheel.policy->bundled_with_extras.empty()) return {};
    return separator + p.name + "[" + wheel.policy->bundled_with_extras.front() + "]";
}

// A GPU build that links or dlopens libcudnn from the system (the policy's system_cudnn:
// onnxruntime's CUDA provider, TensorFlow from 2.1, Paddle 2.x, JAX builds without NVIDIA
// wheels). CuPy only loads it for cupy.cudnn, so its policy leaves it out; an unpinned Paddle
// bundles it (3.x wheels pull nvidia-cudnn in).
bool loads_system_cudnn(const lint::WheelStack& wheel) {
    return wheel.system_cudnn && !wheel.bundles_libraries && !wheel.cpu_only &&
           !wheel.cudnn_optional;
}

// Anything in the shipped stages that could put a libcudnn on the image: a cuDNN
// package, a wheel that bundles CUDA libraries (torch pulls nvidia-cudnn-cu12), a conda
// CUDA build, any mention of cudnn in a RUN, COPY or ENV (tarballs, COPY --from a cudnn
// image, onnxruntime-gpu[cuda,cudnn]) or an install whose packages cannot be read.
bool may_bring_cudnn(const dockerfile::Facts& facts, const rules::Database& db) {
    const auto& stage = facts.final_stage();
    for (const auto& p : stage.packages) {
        auto wheel = lint::wheel_stack(p, db);
        if (lint::is_cudnn_package(p) || (wheel && wheel->bundles_libraries && !wheel->cpu_only) ||
            (p.manager == dockerfile::Manager::conda && !p.cuda.empty()))
            return true;
    }
    for (const auto& r : stage.requirements)
        if (!r.constraints) return true;
    for (std::size_t index : lint::shipped_stages(facts)) {
        for (std::size_t i : facts.build.stages.at(index).instructions) {
            const auto& ins = facts.dockerfile.instructions.at(i);
            if (ins.keyword == "from") continue;
            std::string text = ins.original;
            for (const auto& doc : ins.heredocs) text += "\n" + doc.content;
            std::transform(text.begin(), text.end(), text.begin(),
                           [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
            if (text.find("cudnn") != std::string::npos) return true;
        }
    }
    return false;
}

std::vector<report::Finding> without_cudnn(const dockerfile::Facts& facts,
                                           const rules::Database& db) {
    std::vector<report::Finding> out;
    const auto& stage = facts.final_stage();
    if (!known_without_cudnn(stage.base) || may_bring_cudnn(facts, db)) return out;
    for (const auto& p : stage.packages) {
        auto wheel = lint::wheel_stack(p, db);
        if (!wheel || !loads_system_cudnn(*wheel)) continue;
        auto f = lint::finding(facts, "CUVL10", p.line, p.end_line);
        f.severity = report::Severity::error;
        f.message = p.word + " loads libcudnn from the system, but " + stage.base.reference +
                    " is a CUDA image without cuDNN (NVIDIA ships it only in the -cudnn "
                    "tags) and nothing in this Dockerfile installs it: the GPU code fails to "
                    "load at run time (" +
                    cpu_fallback_note + ").";
        f.fix = "Build on the cudnn flavour of the same tag (nvidia/cuda:" +
                (stage.base.cuda.empty() ? std::string("<cuda>") : stage.base.cuda) + "-cudnn-" +
                stage.base.flavor +
                "-<os>), or install the cuDNN the package was built against (apt libcudnn, "
                "nvidia-cudnn-cu12" +
                bundled_variant(p, *wheel, ", ") + ").";
        out.push_back(std::move(f));
    }
    return out;
}

// A RUN that compiles CUDA code: nvcc itself, or a build switch that turns the CUDA
// backend on (CMAKE_ARGS="-DLLAMA_CUBLAS=on" / -DGGML_CUDA=on for llama-cpp-python,
// FORCE_CUDA=1 for torch extensions, DS_BUILD_OPS=1 for DeepSpeed's ops at install).
// Lower-cased text.
bool compiles_cuda(const std::string& text, const dockerfile::RunStep& run) {
    for (const auto& command : run.commands) {
        if (!command.words.empty() && command.words[0].ends_with("nvcc") &&
            (command.words.size() < 2 || command.words[1] != "--version"))
            return true;
    }
    if (text.find("force_cuda=1") != std::string::npos ||
        text.find("ds_build_ops=1") != std::string::npos)
        return true;
    return lint::cmake_turns_cuda_on(text);
}

// A build of the checked-out project (python setup.py develop, pip install -e .): after the
// stage clones a framework's repository, that is the framework compiled with its CUDA code.
bool builds_checked_out_project(const dockerfile::RunStep& run) {
    for (const auto& command : run.commands) {
        const auto& w = command.words;
        for (std::size_t i = 0; i + 1 < w.size(); ++i) {
            if (w[i].ends_with("setup.py") &&
                (w[i + 1] == "develop" || w[i + 1] == "install" || w[i + 1] == "build" ||
                 w[i + 1] == "build_ext" || w[i + 1] == "bdist_wheel"))
                return true;
        }
        const bool pip = std::any_of(w.begin(), w.end(), [](const std::string& word) {
            return word == "pip" || word == "pip3" || word.ends_with("/pip");
        });
        if (pip && std::find(w.begin(), w.end(), "install") != w.end() &&
            (std::find(w.begin(), w.end(), ".") != w.end() ||
             std::find(w.begin(), w.end(), "./") != w.end()))
            return true;
    }
    return false;
}

// The stage installs a CUDA compiler itself (apt cuda-nvcc-X-Y / cuda-toolkit-X-Y,
// conda cuda-nvcc, pip nvidia-cuda-nvcc-cu12).
bool installs_compiler(const dockerfile::StageFacts& stage) {
    return std::any_of(stage.packages.begin(), stage.packages.end(), [](const auto& p) {
        return p.name.find("nvcc") != std::string::npos || p.name.starts_with("cuda-toolkit") ||
               p.name.starts_with("cuda-compiler") || p.name == "nvidia-cuda-toolkit" ||
               p.name.starts_with("cuda-libraries-dev") || p.name == "cudatoolkit-dev";
    });
}

// CUDA code compiled on an nvidia/cuda base or runtime tag, or a framework image's -runtime
// tag (pytorch/pytorch:…-runtime): none has nvcc nor the CUDA headers, so the build fails
// or (llama-cpp-python, torch extensions) quietly builds without its CUDA backend.
std::vector<report::Finding> compiler_missing(const dockerfile::Facts& facts,
                                              const rules::Database& db) {
    std::vector<report::Finding> out;
    const std::size_t index = facts.build.final_stage;
    const auto& stage = facts.stages.at(index);
    const bool cuda_tag = stage.base.kind == dockerfile::BaseKind::nvidia_cuda &&
                          (stage.base.flavor == "runtime" || stage.base.flavor == "base");
    const bool framework_runtime_tag =
        stage.base.kind == dockerfile::BaseKind::framework_cuda_tag &&
        stage.base.flavor == "runtime";
    if ((!cuda_tag && !framework_runtime_tag) || installs_compiler(stage)) return out;
    const bool framework_checkout = lint::clones_framework_repository(facts, index, db, true);
    for (const auto& run : facts.build.stages.at(index).runs) {
        std::string text = lint::run_text(facts, run);
        std::transform(text.begin(), text.end(), text.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        if (!compiles_cuda(text, run) && !(framework_checkout && builds_checked_out_project(run)))
            continue;
        auto f = lint::finding(facts, "CUVL10", run.start_line, run.end_line);
        f.severity = report::Severity::error;
        f.message = "this RUN compiles CUDA code, but " + stage.base.reference +
                    " has no nvcc and no CUDA headers (only the -devel tags do): the build fails "
                    "or quietly produces a CPU-only binary.";
        f.fix =
            "Compile in a -devel stage and copy the result into the -runtime stage, or "
            "build FROM the matching -devel tag.";
        out.push_back(std::move(f));
        break;  // one base decision to undo
    }
    return out;
}

// The package whose own CUDA wheel index `url` is (…/llama-cpp-python/whl/cu123) and whose
// CUDA builds load the system's libraries, with the CUDA the index serves; nullptr otherwise.
const rules::PythonPackage* system_cuda_wheel_index(const std::string& url,
                                                    const rules::Database& db, std::string& cuda) {
    for (const auto& row : db.python_packages()) {
        if (row.cuda_wheel_index.empty() || row.cuda_libraries != "system" ||
            !url.starts_with(row.cuda_wheel_index))
            continue;
        std::string tail = url.substr(row.cuda_wheel_index.size());
        tail = tail.substr(0, tail.find('/'));
        cuda = dockerfile::cuda_from_tag(tail);
        if (!cuda.empty() && cuda != "cpu") return &row;
    }
    return nullptr;
}

// A CUDA build from a project's own wheel index that loads the system's CUDA runtime and
// cuBLAS (llama-cpp-python's whl/cuXYZ), named outright or as the index a requirements file
// is installed against: that index serves nothing else, so the file is there for it.
std::vector<report::Finding> wheel_index_builds(const dockerfile::Facts& facts,
                                                const rules::Database& db) {
    std::vector<report::Finding> out;
    const auto& stage = facts.final_stage();
    auto report = [&](const rules::PythonPackage& row, const std::string& cuda,
                      const std::string& url, const std::string& what, int line, int end_line) {
        auto f = lint::finding(facts, "CUVL10", line, end_line);
        f.severity = report::Severity::error;
        f.message = what + " installs " + row.name + "'s CUDA " + cuda + " build from " + url +
                    ", which loads libcudart and libcublas from the system, but " +
                    stage.base.reference +
                    " ships no CUDA libraries and nothing in this Dockerfile installs them: it "
                    "fails to load at run time (and if pip takes PyPI's newer source release "
                    "instead, that one builds without CUDA).";
        f.evidence.push_back(url + ": " + row.name + "'s own CUDA " + cuda + " wheel index");
        f.fix = "Build on a CUDA runtime image (nvidia/cuda:" + cuda +
                ".x-runtime-<os>, the CUDA the index names).";
        out.push_back(std::move(f));
    };
    std::string cuda;
    for (const auto& p : stage.packages) {
        if (p.manager != dockerfile::Manager::pip) continue;
        const auto* row = system_cuda_wheel_index(p.index_url, db, cuda);
        if (row && row->name == p.name) report(*row, cuda, p.index_url, p.word, p.line, p.end_line);
    }
    for (const auto& r : stage.requirements) {
        if (r.manager != dockerfile::Manager::pip || r.constraints) continue;
        for (const auto& url : r.index_urls) {
            if (const auto* row = system_cuda_wheel_index(url, db, cuda)) {
                report(*row, cuda, url, "pip install -r " + r.path, r.line, r.line);
                break;
            }
        }
    }
    return out;
}

std::vector<report::Finding> run(const dockerfile::Facts& facts, const rules::Database& db) {
    std::vector<report::Finding> out = compiler_missing(facts, db);
    const auto& stage = facts.final_stage();
    if (!known_without_cuda(stage.base)) {
        auto more = without_cudnn(facts, db);
        out.insert(out.end(), more.begin(), more.end());
        return out;
    }
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
    auto from_indexes = wheel_index_builds(facts, db);
    out.insert(out.end(), from_indexes.begin(), from_indexes.end());
    for (const auto& p : stage.packages) {
        auto wheel = lint::wheel_stack(p, db);
        if (!wheel || wheel->bundles_libraries || wheel->cpu_only) continue;
        // A retired name (tensorflow-gpu) is CUVL05's finding.
        if (wheel->policy && !wheel->policy->retired_for.empty()) continue;
        auto f = lint::finding(facts, "CUVL10", p.line, p.end_line);
        f.severity = report::Severity::error;
        f.message = p.word + " loads libcudart, libcublas and libcudnn from the system, but " +
                    stage.base.reference +
                    " ships no CUDA libraries and nothing in this Dockerfile "
                    "installs them: the GPU code fails to load at run time (" +
                    cpu_fallback_note + ").";
        f.fix =
            "Build on a CUDA runtime image with cuDNN (nvidia/cuda:<cuda>-cudnn-runtime-<os>) that "
            "matches the package's CUDA, or install the variant that bundles its libraries (" +
            (bundled_variant(p, *wheel, "").empty() ? std::string("the nvidia-*-cu12 wheels")
                                                    : bundled_variant(p, *wheel, "")) +
            ").";
        out.push_back(std::move(f));
    }
    return out;
}

CheckInfo info() {
    CheckInfo i;
    i.id = "CUVL10";
    i.name = "system-cuda-missing";
    i.severity = report::Severity::error;
    return i;
}

}  // namespace cuvl10

extern const LintCheck cuvl10_system_cuda_missing;
const LintCheck cuvl10_system_cuda_missing{cuvl10::info(), &cuvl10::run};

}  // namespace cuvet::checks
