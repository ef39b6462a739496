// CUVL14 (info): the shipped image's GPU framework comes only from installs the
// linter cannot read (requirements/lock/environment files, git or URL
// requirements, local projects and wheels): say so instead of staying silent.
#include <algorithm>
#include <cctype>

#include "checks/lint/lint_support.hpp"
#include "cuvet/checks/registry.hpp"
#include "cuvet/core/ascii.hpp"
#include "cuvet/rules/framework_catalog.hpp"

namespace cuvet::checks {
namespace cuvl14 {

using dockerfile::BaseKind;

// The words that say a GPU framework is inside (the catalog's name_words): an image
// (paddlepaddle/paddle:2.5.1-gpu, …:v1.19.0-torch-cuda) or a wheel file built here.
bool names_framework(const std::string& name, const rules::Database& db) {
    const std::string text = ascii_lower(name);
    for (const auto& record : db.framework_catalog().records()) {
        for (const auto& word : record.name_words) {
            if (text.find(word) != std::string::npos) return true;
        }
    }
    return false;
}

// "cuda", "gpu", "nvidia", or a CUDA build tag standing as a word of its own
// (requirements-pyg-pt28-cu129.txt).
bool mentions_gpu(const std::string& name) {
    const std::string text = ascii_lower(name);
    if (text.find("cuda") != std::string::npos || text.find("gpu") != std::string::npos ||
        text.find("nvidia") != std::string::npos)
        return true;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = start;
        while (end < text.size() && std::isalnum(static_cast<unsigned char>(text[end]))) ++end;
        if (!dockerfile::cuda_from_tag(text.substr(start, end - start)).empty()) return true;
        start = end + 1;
    }
    return false;
}

// A base image we have no table for but whose name says it carries a GPU framework
// (paddlepaddle/paddle:2.5.1-gpu-…, someorg/pytorch-cuda): the framework is in the base,
// not in an unreadable install.
bool base_names_framework(const dockerfile::BaseFacts& base, const rules::Database& db) {
    if (base.kind != BaseKind::other) return false;
    // The tag counts too: kernai/refinery-parent-images:v1.19.0-torch-cuda.
    return names_framework(base.image.repository + ":" + base.image.tag, db);
}

// A framework named outright: the families lint models and the rules' other GPU
// frameworks and plugins (mxnet-cu112). An extension named for its CUDA build
// (bagua-cuda113) is not one: the framework under it may still be hidden.
bool shows_gpu_framework(const dockerfile::Package& p, const rules::Database& db) {
    if (lint::is_framework(p, db)) return true;
    if (p.manager != dockerfile::Manager::pip && p.manager != dockerfile::Manager::conda)
        return false;
    const auto* row = db.python_package(p.name, "pypi");
    if (!row) return false;
    // A package that is its own GPU runtime (its row says whose CUDA libraries it loads:
    // llama-cpp-python's CUDA wheels), installed as a CUDA build, is the visible stack.
    return row->role == "framework" || row->role == "gpu_plugin" ||
           (!row->cuda_libraries.empty() && lint::needs_cuda(p, db));
}

// A wheel the Dockerfile builds itself and installs by glob (TensorFlow's
// build_pip_package writes /opt/tensorflow/pip_pkg/tensorflow_*.whl): its file name says
// which framework it is, so the framework is visible, built here. A glob that names no
// project (/tmp/tensorflow-wheel/*.whl, a builder stage's output) lets its directory say.
bool framework_wheel_built_here(const dockerfile::RequirementsFile& r, const rules::Database& db) {
    if (r.kind != "local wheel") return false;
    const auto slash = r.path.rfind('/');
    const std::string file = r.path.substr(slash == std::string::npos ? 0 : slash + 1);
    const std::string project = file.substr(0, file.find_first_of("-_"));
    if (project.find('*') == std::string::npos || slash == std::string::npos || slash == 0)
        return names_framework(project, db);
    const auto parent = r.path.rfind('/', slash - 1);
    return names_framework(r.path.substr(parent + 1, slash - parent - 1), db);
}

// A wheel installed by a glob (dist/*.whl), or a local project (`pip install -e .` in
// incubator-mxnet/python), after the stage clones a framework's own repository
// (git clone …/pytorch/pytorch) and builds it: the framework is visible, built in this
// Dockerfile, not an unreadable install.
bool framework_source_built_here(const dockerfile::Facts& facts, std::size_t stage,
                                 const dockerfile::RequirementsFile& r, const rules::Database& db) {
    const bool built_wheel = r.kind == "local wheel" && r.path.find('*') != std::string::npos;
    if (!built_wheel && r.kind != "local project") return false;
    return lint::clones_framework_repository(facts, stage, db, false);
}

// A wheel file from the build context (wheel/sglang-0.0.0.dev1+g92e8bb7-py3-none-any.whl)
// of a package the rules know nothing of, or know only as an extension: its name and
// version are readable, but the framework it requires is in the wheel's metadata. A wheel the rules
// know (torch, onnxruntime-gpu, …) or one fetched by URL under its release name is judged as a
// package.
bool unknown_local_wheel(const dockerfile::Package& p, const rules::Database& db) {
    if (!lint::is_wheel_file(p)) return false;
    // An extension the rules know (sglang) still requires a framework its metadata names.
    const auto* row = db.python_package(p.name, "pypi");
    return !lint::is_framework(p, db) && !lint::is_nvidia_library_wheel(p) &&
           (!row || (row->role != "framework" && row->role != "gpu_plugin"));
}

// An install in the same RUN as a cmake that configures a CUDA build (Caffe's python
// requirements, then cmake -DUSE_CUDNN=1 .. && make): the dependencies of the GPU code
// compiled right there against the base's CUDA, not a framework brought in out of sight.
// CMAKE_ARGS handed to a pip install (llama-cpp-python) builds one package, not the stack.
bool feeds_cuda_build(const dockerfile::Facts& facts, std::size_t stage,
                      const dockerfile::RequirementsFile& r) {
    for (const auto& run : facts.build.stages.at(stage).runs) {
        if (run.start_line != r.line) continue;
        for (const auto& command : run.commands) {
            const auto& w = command.words;
            if (w.empty() || !(w[0] == "cmake" || w[0].ends_with("/cmake"))) continue;
            std::string flags;
            for (const auto& word : w) flags += " " + word;
            if (lint::cmake_turns_cuda_on(ascii_lower(flags))) return true;
        }
    }
    return false;
}

// Signs that the image is meant to run on a GPU at all.
bool gpu_image(const dockerfile::Facts& facts, const dockerfile::StageFacts& stage,
               const rules::Database& db) {
    if (lint::base_stack(stage.base, db).cuda || mentions_gpu(stage.base.reference)) return true;
    for (const auto& p : stage.packages) {
        // CUDA or cuDNN from apt, or conda's (cuda-toolkit, cudnn from the nvidia channel).
        const bool system_or_conda =
            p.manager == dockerfile::Manager::apt || p.manager == dockerfile::Manager::conda;
        if (system_or_conda &&
            (p.name.starts_with("cuda") || p.name == "cudnn" || lint::is_cudnn_package(p)))
            return true;
    }
    for (const auto& r : stage.requirements) {
        if (mentions_gpu(r.path)) return true;
    }
    const auto& built = facts.build.stages.at(stage.stage);
    // A program run at build time that asks for the GPU (`python -c "…torch.version.cuda ==
    // '13.0'"`, nvidia-smi) says the hidden installs are meant to bring a CUDA build. Text
    // merely written somewhere (`echo "…torch.cuda.is_available()…" > get-models.py`) does not.
    for (const auto& run : built.runs) {
        for (const auto& command : run.commands) {
            const auto& w = command.words;
            if (w.empty()) continue;
            const std::string program = w[0].substr(w[0].rfind('/') + 1);
            if ((program.starts_with("python") || program == "nvidia-smi") &&
                std::any_of(w.begin(), w.end(), mentions_gpu))
                return true;
        }
    }
    return std::any_of(built.env.begin(), built.env.end(), [](const dockerfile::Variable& v) {
        return v.name == "NVIDIA_VISIBLE_DEVICES" || v.name == "NVIDIA_DRIVER_CAPABILITIES";
    });
}

// An NGC image carries a framework when the rules' NGC table has its repository
// (nvcr.io/nvidia/pytorch, …/tritonserver) or its name says so; nvcr.io/nvidia/cuda-dl-base
// is CUDA, cuDNN and NCCL only, so the framework comes from the Dockerfile's installs.
bool ngc_carries_framework(const dockerfile::BaseFacts& base, const rules::Database& db) {
    const auto& rows = db.ngc_containers();
    return names_framework(base.framework, db) ||
           std::any_of(rows.begin(), rows.end(), [&](const rules::NgcContainerRelease& row) {
               return row.image == base.framework;
           });
}

std::vector<report::Finding> run(const dockerfile::Facts& facts, const rules::Database& db) {
    std::vector<report::Finding> out;
    const auto& stage = facts.final_stage();
    const BaseKind kind = stage.base.kind;
    if (kind == BaseKind::framework_cuda_tag || kind == BaseKind::framework_release ||
        (kind == BaseKind::ngc && ngc_carries_framework(stage.base, db)) ||
        base_names_framework(stage.base, db))
        return out;
    for (const auto& p : stage.packages) {
        // The stack is (partly) visible and judged by the other checks: a framework from apt
        // too when a package that installs its Python API comes with it (rules/frameworks.json
        // apt_bindings: NVIDIA's TensorRT containers). A bare libnvinfer or libcudnn is a library
        // some framework may load, not the framework the hidden installs bring (libnvinfer7 beside
        // an environment.yml, the h08 class of bench/lint_corpus/unseen).
        if (shows_gpu_framework(p, db) ||
            (p.manager == dockerfile::Manager::apt && db.framework_catalog().apt_binding(p.name))) {
            return out;
        }
    }
    if (std::any_of(stage.requirements.begin(), stage.requirements.end(),
                    [&](const dockerfile::RequirementsFile& r) {
                        return framework_wheel_built_here(r, db) ||
                               framework_source_built_here(facts, stage.stage, r, db);
                    }))
        return out;
    std::vector<dockerfile::RequirementsFile> wheels;
    for (const auto& p : stage.packages) {
        if (unknown_local_wheel(p, db)) {
            wheels.push_back({dockerfile::Manager::pip, p.word, p.line, "local wheel"});
        }
    }
    std::vector<const dockerfile::RequirementsFile*> hidden;
    for (const auto& r : stage.requirements) {
        // `pip install --no-deps -e .` adds the project's own code: the stack comes from
        // elsewhere. (A requirements file with --no-deps still installs every line of it.)
        const bool own_code_only = r.no_deps && r.kind == "local project";
        if (!r.constraints && !own_code_only && !feeds_cuda_build(facts, stage.stage, r))
            hidden.push_back(&r);
    }
    for (const auto& w : wheels) hidden.push_back(&w);
    if (hidden.empty() || !gpu_image(facts, stage, db)) return out;
    // Point at the install most likely to bring the framework: a file or project before
    // a git or URL requirement, which names one project (often not the framework).
    auto rank = [](const dockerfile::RequirementsFile* r) {
        return r->kind == "git URL" || r->kind == "URL" ? 1 : 0;
    };
    std::sort(hidden.begin(), hidden.end(), [&](const auto* a, const auto* b) {
        return std::pair(rank(a), a->line) < std::pair(rank(b), b->line);
    });
    const auto* first = hidden.front();
    auto f = lint::finding(facts, "CUVL14", first->line, first->line);
    f.severity = report::Severity::info;
    auto describe = [](const dockerfile::RequirementsFile& r) {
        return r.kind == "command" ? "`" + r.path + "`" : r.kind + " " + r.path;
    };
    f.message = "the GPU framework comes from " + describe(*first) +
                ", which cuvet cannot read: "
                "no CUDA/cuDNN check covers it. Run cuvet validate on the built image.";
    for (const auto* r : hidden) {
        f.evidence.push_back("line " + std::to_string(r->line) + ": " + describe(*r));
    }
    f.fix =
        "Validate the built image (cuvet validate IMAGE), or install the framework with an "
        "explicit "
        "pinned requirement in the Dockerfile.";
    out.push_back(std::move(f));
    return out;
}

CheckInfo info() {
    CheckInfo i;
    i.id = "CUVL14";
    i.name = "gpu-stack-not-visible";
    i.severity = report::Severity::info;
    return i;
}

}  // namespace cuvl14

extern const LintCheck cuvl14_gpu_stack_not_visible;
const LintCheck cuvl14_gpu_stack_not_visible{cuvl14::info(), &cuvl14::run};

}  // namespace cuvet::checks
