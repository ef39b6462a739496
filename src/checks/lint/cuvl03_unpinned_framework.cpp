// CUVL03: a framework or cuDNN installed through pip/conda without an exact version.
#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

#include "checks/lint/lint_support.hpp"
#include "cuvet/checks/registry.hpp"
#include "cuvet/rules/framework_catalog.hpp"

namespace cuvet::checks {
namespace cuvl03 {

// A range `>=X.Y[…],<X.(Y+1)` (or `<=X.Y.Z`) keeps one release line; `>=1.21,<2` spans every
// 1.x release, and ONNX Runtime's default CUDA changed within 1.x.
bool range_keeps_release_line(const std::string& spec) {
    std::optional<rules::Version> lower;
    std::optional<rules::Version> upper;
    bool inclusive = false;
    std::size_t start = 0;
    while (start <= spec.size()) {
        const std::size_t comma = std::min(spec.find(',', start), spec.size());
        const std::string part = spec.substr(start, comma - start);
        start = comma + 1;
        const std::size_t digits = part.find_first_of("0123456789");
        if (digits == std::string::npos) continue;
        const std::string op = part.substr(0, digits);
        const auto version = rules::Version::parse(part.substr(digits));
        if (!version) continue;
        if (op.starts_with(">")) lower = version;
        if (op.starts_with("<")) upper = version, inclusive = op == "<=";
    }
    if (!lower || !upper) return false;
    if (inclusive) return upper->major() == lower->major() && upper->minor() == lower->minor();
    return upper->major() == lower->major() &&
           (upper->minor() == lower->minor() + 1 ||
            (upper->minor() == lower->minor() && upper->size() > 2));
}

// A rebuild cannot move to another release line: ==X (also ==X.*), ~=X.Y, a conda
// pin (=X means X.*), a range inside one release line, or a version left to a build argument.
bool pinned_enough(const dockerfile::Package& p, const rules::Database& db) {
    if (p.pinned) return true;
    const std::string& spec = p.spec;
    // A CUDA library's release is its CUDA (cuda-python 11.x binds CUDA 11): an upper bound
    // (cuda-python<12.0.0) keeps the CUDA major.
    if (spec.find('<') != std::string::npos) {
        const auto* row = db.python_package(p.name, "pypi");
        if (row && row->role == "cuda_library") return true;
    }
    if (spec.find('$') != std::string::npos) return true;
    if (spec.starts_with("~=") || spec.starts_with("==")) return true;
    if (p.manager == dockerfile::Manager::conda && spec.starts_with("=")) return true;
    return range_keeps_release_line(spec);
}

// A kernel compiler its framework's wheels pin (rules/kernel_compilers.json: torch pins triton)
// is already in the stage once that framework is, from an earlier install or the base image:
// `pip install triton` after torch is "already satisfied" and changes nothing.
bool pinned_by_installed_framework(const dockerfile::StageFacts& stage,
                                   const dockerfile::Package& p, const rules::Database& db) {
    const auto* row = db.python_package(p.name, "pypi");
    const auto* compiler =
        row && !row->framework.empty() ? db.kernel_compiler(row->framework) : nullptr;
    if (!compiler) return false;
    if (stage.base.framework == compiler->pinned_by) return true;
    return std::any_of(stage.packages.begin(), stage.packages.end(),
                       [&](const dockerfile::Package& q) {
                           const auto match = lint::framework_wheel(q, db);
                           return (q.inherited || q.line <= p.line) && match &&
                                  match->kind == rules::WheelMatch::Kind::spelling &&
                                  match->framework->framework == compiler->pinned_by;
                       });
}

// What the rules say of the package makes an unpinned install harmless to the GPU stack:
// - it uses its CUDA build only when the code asks for the GPU (xgboost, catboost), so a
//   rebuild that moves its CUDA leaves CPU use as it was;
// - every release is compiled here against the image's toolkit (dlib, pycuda): a newer one is
//   still built for the base's CUDA, and one that needs another toolkit fails the build;
// - it comes from a wheel index its project stopped publishing to (detectron2's find-links
//   pages end at 0.6), so every rebuild gets the same release;
// - the rules do not know it and its extra names the CUDA release (nvidia-cutlass-dsl[cu13]):
//   each release it can take is that CUDA's build, as with nvidia-*-cu13 wheels.
bool stable_for_gpu_stack(const dockerfile::Package& p, const rules::Database& db) {
    const bool conda = p.manager == dockerfile::Manager::conda;
    const auto* row = db.python_package(p.name, conda ? "conda" : "pypi");
    if (!row) return !conda && lint::extra_fixes_cuda_major(p);
    if (row->gpu_optional || row->source_only) return true;
    return std::any_of(row->frozen_wheel_indexes.begin(), row->frozen_wheel_indexes.end(),
                       [&](const rules::FrozenWheelIndex& frozen) {
                           return !p.index_url.empty() && p.index_url.starts_with(frozen.url);
                       });
}

std::string pin_hint(const dockerfile::Package& p) {
    if (p.manager == dockerfile::Manager::pip) {
        return p.name + (p.extras.empty() ? "" : "[" + p.extras + "]") + "==<version>";
    }
    return p.name + "=<version>";
}

std::vector<report::Finding> run(const dockerfile::Facts& facts, const rules::Database& db) {
    // One finding per install command: `pip install torch torchvision torchaudio`
    // is one decision to fix, not three.
    struct Group {
        const dockerfile::Package* first = nullptr;
        std::vector<std::string> words;
        std::vector<std::string> pins;
        bool framework = false;
        const dockerfile::Package* extra_index = nullptr;  // unpinned with --extra-index-url cuXXX
        bool source_build = false;  // compiled here with CUDA on (llama-cpp-python's CMAKE_ARGS)
    };
    std::map<std::pair<std::size_t, int>, Group> groups;
    for (const auto& stage : facts.stages) {
        for (const auto& p : stage.packages) {
            if (p.inherited || p.manager == dockerfile::Manager::apt || pinned_enough(p, db) ||
                p.cuda == "cpu" || pinned_by_installed_framework(stage, p, db) ||
                stable_for_gpu_stack(p, db))
                continue;
            const bool source_build = lint::builds_cuda_from_source(facts, stage.stage, p, db);
            if (!lint::needs_cuda(p, db) && !lint::is_cudnn_package(p) && !source_build) continue;
            // A CUDA library wheel's name fixes its CUDA major (nvidia-nccl-cu13): a newer
            // release is still that CUDA's. cuDNN is the exception CUVL03 keeps (its releases
            // change what a framework accepts).
            if (lint::is_nvidia_library_wheel(p) && !lint::is_cudnn_package(p)) continue;
            // So does a conda library named for its build (the pytorch channel's magma-cuda118):
            // every release of it is that CUDA's. pip's CUDA-named frameworks and extensions
            // (mxnet-cu112, faiss-gpu-cu12) still change their API between releases.
            if (p.manager == dockerfile::Manager::conda && !lint::is_framework(p, db) &&
                lint::names_cuda_build(p.name))
                continue;
            Group& g = groups[{stage.stage, p.line}];
            if (!g.first) g.first = &p;
            if (std::find(g.words.begin(), g.words.end(), p.word) != g.words.end()) continue;
            g.words.push_back(p.word);
            g.pins.push_back(pin_hint(p));
            g.framework = g.framework || lint::is_framework(p, db);
            if (p.pypi_also && !g.extra_index) g.extra_index = &p;
            g.source_build = g.source_build || source_build;
        }
    }
    std::vector<report::Finding> out;
    for (const auto& [key, g] : groups) {
        const dockerfile::Package& p = *g.first;
        auto f = lint::finding(facts, "CUVL03", p.line, p.end_line);
        f.severity = report::Severity::warning;
        f.message =
            std::string(dockerfile::to_string(p.manager)) + " installs " + lint::join(g.words) +
            " without a version: each rebuild takes the newest release, " +
            (g.source_build ? "compiled here with CUDA on against the base's CUDA, whatever that "
                              "release's build expects."
                            : "built for whatever CUDA that release targets.");
        if (g.extra_index) {
            f.message += " With --extra-index-url, pip picks the newest of PyPI and " +
                         g.extra_index->index_url + ", often PyPI's default build, not the cu" +
                         lint::cuda_digits(g.extra_index->cuda) + " one.";
        }
        f.evidence.push_back("unpinned: " + lint::join(g.words, ", "));
        f.fix = "Pin " + std::string(g.words.size() > 1 ? "them" : "it") + ": " +
                lint::join(g.pins) +
                (g.extra_index ? ", and use --index-url for the CUDA build." : ".");
        out.push_back(std::move(f));
    }
    return out;
}

CheckInfo info() {
    CheckInfo i;
    i.id = "CUVL03";
    i.name = "unpinned-framework";
    i.severity = report::Severity::warning;
    return i;
}

}  // namespace cuvl03

extern const LintCheck cuvl03_unpinned_framework;
const LintCheck cuvl03_unpinned_framework{cuvl03::info(), &cuvl03::run};

}  // namespace cuvet::checks
