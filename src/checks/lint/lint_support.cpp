#include "checks/lint/lint_support.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>

#include "cuvet/core/ascii.hpp"
#include "cuvet/rules/framework_catalog.hpp"

namespace cuvet::checks::lint {
namespace {

std::optional<rules::Version> version(const std::string& text) {
    if (text.empty()) return std::nullopt;
    return rules::Version::parse(text);
}

// torch 2.1.0+cu121 → 2.1.0
std::optional<rules::Version> public_version(const std::string& text) {
    return version(text.substr(0, text.find('+')));
}

}  // namespace

BaseStack base_stack(const dockerfile::BaseFacts& base, const rules::Database& db) {
    using dockerfile::BaseKind;
    BaseStack out;
    out.description = base.reference;
    switch (base.kind) {
        case BaseKind::nvidia_cuda:
            out.cuda = version(base.cuda);
            out.evidence = "image tag";
            out.cuda_libraries = base.flavor == "runtime" || base.flavor == "devel";
            if (base.cudnn_major > 0) {
                out.cudnn_major = base.cudnn_major;
            } else if (!base.cudnn_token.empty() && out.cuda) {
                for (const auto* flavor : db.cudnn_flavors_for(*out.cuda)) {
                    if (flavor->flavor_prefix == base.cudnn_token)
                        out.cudnn_major = flavor->cudnn_major;
                }
            }
            break;
        case BaseKind::framework_cuda_tag:
            out.cuda = version(base.cuda);
            if (base.cudnn_major > 0) out.cudnn_major = base.cudnn_major;
            out.cuda_libraries = true;
            out.evidence = "image tag";
            break;
        case BaseKind::framework_release:
            if (auto v = version(base.framework_version)) {
                auto builds = db.framework_builds(base.framework, *v);
                if (!builds.empty()) {
                    out.cuda = builds.front()->cuda;
                    out.cudnn = builds.front()->cudnn;
                    out.cudnn_major = builds.front()->cudnn_major;
                    out.cuda_libraries = true;
                    out.evidence = "TensorFlow " + v->str() + " tested build configuration";
                }
            }
            break;
        case BaseKind::ngc:
            // nvcr.io/nvidia/<image>:<YY.MM>-…: PyTorch, TensorFlow, JAX, Triton, … releases.
            if (const auto* release = db.ngc_container(base.framework, base.ngc_release)) {
                out.cuda = release->cuda;
                out.cudnn = release->cudnn;
                out.cuda_libraries = true;
                out.evidence =
                    "NGC " + release->image + " " + release->release +
                    (release->provenance.confidence == "secondary"
                         ? " (a secondary source: " + release->provenance.source.url + ")"
                         : " release notes");
            }
            break;
        default:
            break;
    }
    if (out.cudnn && !out.cudnn_major) out.cudnn_major = out.cudnn->major();
    if (out.cuda) {
        out.description += " (CUDA " + out.cuda->str();
        if (out.cudnn_major) out.description += ", cuDNN " + std::to_string(*out.cudnn_major);
        out.description += ")";
    }
    return out;
}

Family family_of(const dockerfile::Package& p) {
    const std::string& n = p.name;
    if (n == "torch" || n == "torchvision" || n == "torchaudio" || n == "pytorch")
        return Family::torch;
    if (n == "tensorflow" || n == "tensorflow-gpu" || n == "tensorflow-cpu" || n == "tf-nightly") {
        return Family::tensorflow;
    }
    if (n == "jax" || n == "jaxlib") return Family::jax;
    if (n == "onnxruntime-gpu" || n == "onnxruntime") return Family::onnxruntime;
    if (n.starts_with("cupy-cuda") || n == "cupy") return Family::cupy;
    if (n == "paddlepaddle-gpu") return Family::paddle;
    if (n == "tensorrt" || n.starts_with("tensorrt-")) return Family::tensorrt;
    if (n == "cntk" || n == "cntk-gpu") return Family::cntk;
    if (n.starts_with("nvidia-") &&
        (n.ends_with("-cu11") || n.ends_with("-cu12") || n.ends_with("-cu13"))) {
        return Family::nvidia_lib;
    }
    return Family::none;
}

bool is_framework(const dockerfile::Package& p) {
    Family f = family_of(p);
    return f != Family::none && f != Family::nvidia_lib;
}

std::optional<int> cudnn_major(const dockerfile::Package& p) {
    std::string digits;
    std::size_t i =
        p.name.starts_with("libcudnn") ? 8 : (p.name.starts_with("cudnn") ? 5 : std::string::npos);
    if (i != std::string::npos) {
        while (i < p.name.size() && std::isdigit(static_cast<unsigned char>(p.name[i])))
            digits += p.name[i++];
    }
    // "libcudnn99999999999" is no cuDNN major (and would overflow stoi).
    if (!digits.empty()) return digits.size() > 2 ? std::nullopt : std::optional(std::stoi(digits));
    if (auto v = rules::Version::parse(p.version.substr(0, p.version.find_first_of("-+="))))
        return v->major();
    return std::nullopt;
}

bool is_cudnn_package(const dockerfile::Package& p) {
    return p.name.starts_with("libcudnn") || p.name.starts_with("cudnn") ||
           p.name.starts_with("nvidia-cudnn");
}

namespace {

// NVIDIA's and the frameworks' naming convention: a name ending in -cuNN/-cuNNN or
// -cudaNN[x] states the CUDA build (nvidia-cublas-cu12, mxnet-cu112, cupy-cuda12x).
bool names_cuda_build(std::string_view n) {
    const std::size_t dash = n.rfind('-');
    if (dash == std::string_view::npos) return false;
    std::string_view tail = n.substr(dash + 1);
    if (tail.starts_with("cuda")) {
        tail.remove_prefix(4);
    } else if (tail.starts_with("cu")) {
        tail.remove_prefix(2);
    } else {
        return false;
    }
    if (tail.starts_with('$')) return true;  // bagua-cuda$CUDA_VERSION_BAGUA
    if (tail.ends_with('x')) tail.remove_suffix(1);
    if (tail.size() < 2 || tail.size() > 3) return false;
    return std::all_of(tail.begin(), tail.end(),
                       [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

}  // namespace

namespace {

// `extra` among the package's extras, as a whole word: rembg[gpu,cli] has gpu.
bool has_extra(const dockerfile::Package& p, const std::string& extra) {
    std::size_t start = 0;
    while (start <= p.extras.size()) {
        const std::size_t comma = p.extras.find(',', start);
        std::string word = p.extras.substr(start, comma - start);
        std::erase(word, ' ');
        if (word == extra) return true;
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return false;
}

}  // namespace

bool needs_cuda(const dockerfile::Package& p, const rules::Database& db) {
    if (p.manager == dockerfile::Manager::apt) return false;
    const bool conda = p.manager == dockerfile::Manager::conda;
    const rules::PythonPackage* row = db.python_package(p.name, conda ? "conda" : "pypi");
    // conda-forge and the pytorch channel reuse most PyPI names (tensorflow-gpu, cupy, …).
    if (!row && conda) row = db.python_package(p.name, "pypi");
    // A local version that names a CUDA build (jaxlib==0.4.20+cuda12.cudnn89) needs it. A CUDA
    // index URL says nothing of the other packages on its line (numpy, Pillow, wandb come from
    // PyPI): only a package that has CUDA builds is one there.
    if (!p.cuda.empty() && p.cuda != "cpu" && !p.cuda_evidence.starts_with("index URL"))
        return true;
    if (row) {
        if (row->role == "cpu_only") return false;
        // rembg[gpu] pulls onnxruntime-gpu; rembg alone the CPU onnxruntime.
        if (!row->cuda_extras.empty()) {
            return std::any_of(row->cuda_extras.begin(), row->cuda_extras.end(),
                               [&](const std::string& extra) { return has_extra(p, extra); });
        }
        // llama-cpp-python's CUDA builds come only from its own index; PyPI's is a source build.
        if (!row->cuda_wheel_index.empty()) return p.index_url.starts_with(row->cuda_wheel_index);
        // Plain `jax` is CPU-only; its [cudaNN] extras select the GPU plugin.
        if (row->framework == "jax" && row->role == "framework")
            return p.extras.find("cuda") != std::string::npos || !p.cuda.empty();
        return true;
    }
    if (names_cuda_build(p.name)) return true;
    // Extensions the CUDA indexes serve per CUDA build (torch-scatter, torch-tensorrt, fbgemm-gpu).
    return !p.cuda.empty() && p.cuda != "cpu" &&
           (p.name.starts_with("torch-") || p.name.ends_with("-gpu"));
}

std::string cuda_digits(const std::string& cuda) {
    std::string out;
    for (char c : cuda) {
        if (c != '.') out += c;
    }
    return out;
}

bool same_cuda(const rules::Version& a, const rules::Version& b) {
    if (a.major() != b.major()) return false;
    if (a.size() < 2 || b.size() < 2) return true;
    return a.minor() == b.minor();
}

namespace {

// "cuda" among jax's extras, as a whole word: jax[cuda] (not [cuda12], [cuda12_pip]).
bool plain_cuda_extra(const std::string& extras) {
    std::size_t start = 0;
    while (start <= extras.size()) {
        const std::size_t comma = extras.find(',', start);
        if (extras.substr(start, comma - start) == "cuda") return true;
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return false;
}

// cuDNN of a jaxlib local version: +cuda11.cudnn86 → 8.6, +cuda11.cudnn805 → 8.0.5.
std::optional<rules::Version> jaxlib_local_cudnn(const std::string& version) {
    const auto pos = version.find(".cudnn");
    if (pos == std::string::npos) return std::nullopt;
    const std::string digits = version.substr(pos + 6);
    if (digits.size() < 2 || digits.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
    return rules::Version::parse(digits.substr(0, 1) + "." + digits.substr(1, 1) +
                                 (digits.size() > 2 ? "." + digits.substr(2) : ""));
}

// JAX's GPU builds: jax[cudaNN] (NVIDIA wheels), jax[cudaNN-local] (the system's
// libraries), plain jax[cuda] (per release, rules/frameworks.json `selected_by`) and
// jaxlib==X+cudaNNN wheels from Google's index (the system's libraries). False: CPU.
bool jax_stack(const dockerfile::Package& p, const std::optional<rules::Version>& v,
               const rules::Database& db, WheelStack& out) {
    out.framework = "jax";
    if (p.name == "jaxlib" && !p.cuda.empty() && p.cuda != "cpu") {
        out.cudnn = jaxlib_local_cudnn(p.version);
        if (out.cudnn) out.cudnn_major = static_cast<int>(out.cudnn->major());
        return true;
    }
    if (p.extras.find("cuda") == std::string::npos) return false;
    if (!plain_cuda_extra(p.extras)) {
        out.bundles_libraries = p.extras.find("local") == std::string::npos;
        return true;
    }
    // An unpinned jax[cuda] or a release the table does not reach: its build is unknown.
    // The releases known last bring their NVIDIA wheels, so none is demanded of the base.
    out.bundles_libraries = true;
    if (!v) return true;
    for (const rules::FrameworkBuild* build : db.framework_builds("jax", *v)) {
        if (build->selected_by != "jax[cuda]") continue;
        out.cuda = build->cuda;
        out.cudnn = build->cudnn;
        out.cudnn_major = build->cudnn_major;
        out.bundles_libraries = build->package != "jaxlib";
        out.evidence = "jax[cuda] " + v->str() + " installs the " +
                       (build->package == "jaxlib" ? "jaxlib+" + build->variant
                                                   : build->package + " (" + build->variant + ")") +
                       " build";
        break;
    }
    return true;
}

// Hosts that serve a framework's own builds; a wheel URL elsewhere is somebody's rebuild.
bool third_party_wheel(const dockerfile::Package& p, Family family) {
    const std::string& url = p.word;
    const auto scheme = url.find("://");
    if (scheme == std::string::npos || !url.ends_with(".whl") || family == Family::none)
        return false;
    const std::string rest = url.substr(scheme + 3);
    const std::string host = rest.substr(0, rest.find('/'));
    // PyPI's mirrors keep its file layout (…/packages/xx/yy/<hash>/name.whl): PyPI's own bits.
    if (rest.find("/packages/") != std::string::npos) return false;
    for (std::string_view official :
         {"download.pytorch.org", "files.pythonhosted.org", "pypi.org", "pypi.python.org",
          "storage.googleapis.com", "paddle-wheel.bj.bcebos.com", "paddle-whl.bj.bcebos.com",
          "cntk.ai", "pypi.nvidia.com", "developer.download.nvidia.com", "download.onnxruntime.ai",
          "aiinfra.pkgs.visualstudio.com"}) {
        if (host == official) return false;
    }
    if (host == "github.com") {
        // github.com/<owner>/<repo>/releases/…: the project's own releases name it.
        const std::string path = ascii_lower(rest.substr(rest.find('/') + 1));
        const std::string project = path.substr(0, path.find('/', path.find('/') + 1));
        return project.find(p.name.substr(0, p.name.find('-'))) == std::string::npos;
    }
    return true;
}

// "tf1.4.1-gpu-cuda9" → 9, "cuda-10.0" → 10.0, "cuda100" → 10.0, "cuda92" → 9.2.
std::optional<rules::Version> cuda_named_in_url(const std::string& url) {
    const std::string text = ascii_lower(url);
    for (auto pos = text.find("cuda"); pos != std::string::npos; pos = text.find("cuda", pos + 4)) {
        std::size_t i = pos + 4;
        if (i < text.size() && (text[i] == '-' || text[i] == '_')) ++i;
        std::string digits;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
            digits += text[i++];
        if (digits.empty() || digits.size() > 3) continue;
        if (i + 1 < text.size() && text[i] == '.' &&
            std::isdigit(static_cast<unsigned char>(text[i + 1])))
            return rules::Version::parse(digits + "." + text.substr(i + 1, 1));
        if (digits.size() == 3 || (digits.size() == 2 && std::stoi(digits) > 13))
            return rules::Version::parse(digits.substr(0, digits.size() - 1) + "." +
                                         digits.substr(digits.size() - 1));
        return rules::Version::parse(digits);
    }
    return std::nullopt;
}

// A framework lint has no model of its own for, judged from the catalog alone: a pip name
// that states its CUDA build (mxnet-cu112) and a spelling that says whose libraries it loads.
std::optional<WheelStack> catalog_stack(const dockerfile::Package& p, const rules::Database& db,
                                        WheelStack out) {
    const auto match = rules::builtin_framework_catalog().pip(p.name);
    if (!match || match->cuda.empty() || match->spelling->cuda_libraries.empty() || out.cpu_only)
        return std::nullopt;
    out.framework = match->framework->framework;
    out.bundles_libraries = match->spelling->cuda_libraries == "bundled";
    if (!out.cuda) {
        out.cuda = version(match->cuda);
        out.evidence = "package name " + p.name;
    }
    // The release's row for this very package, the most specific one (mxnet-cu101 1.6.0: the
    // 1.6 row knows cuDNN 7, the row for every release does not).
    const rules::FrameworkBuild* build = nullptr;
    if (const auto v = public_version(p.version)) {
        for (const rules::FrameworkBuild* row : db.framework_builds(out.framework, *v)) {
            if (row->package == p.name) build = row;
        }
    }
    if (build) {
        out.cudnn = build->cudnn;
        out.cudnn_major = build->cudnn_major;
    }
    if (out.cudnn && !out.cudnn_major) out.cudnn_major = out.cudnn->major();
    return out;
}

}  // namespace

std::optional<WheelStack> wheel_stack(const dockerfile::Package& p, const rules::Database& db) {
    if (p.manager != dockerfile::Manager::pip) return std::nullopt;
    WheelStack out;
    const Family family = family_of(p);
    if (p.cuda == "cpu") {
        out.cpu_only = true;
        out.evidence = p.cuda_evidence;
    } else if (!p.cuda.empty() && !(p.pypi_also && p.version.empty())) {
        // An unpinned package from --extra-index-url cuXYZ may come from PyPI instead
        // (pip takes the newest of both), so that index does not decide its build.
        out.cuda = version(p.cuda);
        out.evidence = p.cuda_evidence;
    }
    // The release tables describe the official builds; a rebuild hosted elsewhere
    // (github.com/mind/wheels/…/tf1.4.1-gpu-cuda9/tensorflow-1.4.1-….whl) is its own build,
    // known only by what its URL says.
    const bool rebuild = third_party_wheel(p, family);
    if (rebuild && !out.cuda) {
        out.cuda = cuda_named_in_url(p.word);
        if (out.cuda) out.evidence = "the wheel's URL names CUDA " + out.cuda->str();
    }
    auto v = rebuild ? std::nullopt : public_version(p.version);
    switch (family) {
        case Family::torch: {
            out.framework = "pytorch";
            out.bundles_libraries = true;
            if (p.name != "torch" || !v) break;
            std::string variant;
            if (out.cuda)
                variant =
                    "cu" + std::to_string(out.cuda->major()) + std::to_string(out.cuda->minor());
            const rules::FrameworkBuild* build = db.framework_build("pytorch", *v, variant);
            if (build) {
                if (!out.cuda && build->cuda) {
                    out.cuda = build->cuda;
                    out.evidence =
                        "torch " + v->str() + " on PyPI is the " + build->variant + " build";
                }
                out.cudnn = build->cudnn;
                out.cudnn_major = build->cudnn_major;
            }
            break;
        }
        case Family::tensorflow: {
            out.framework = "tensorflow";
            out.bundles_libraries = p.extras.find("and-cuda") != std::string::npos;
            if (!v) break;
            auto builds = db.framework_builds("tensorflow", *v);
            if (!builds.empty()) {
                out.cuda = builds.front()->cuda;
                out.cudnn = builds.front()->cudnn;
                out.cudnn_major = builds.front()->cudnn_major;
                out.evidence = "TensorFlow " + v->str() + " was built with CUDA " +
                               (out.cuda ? out.cuda->str() : "?");
            }
            break;
        }
        case Family::jax:
            if (!jax_stack(p, v, db, out)) return std::nullopt;  // CPU jax
            break;
        case Family::onnxruntime: {
            if (p.name != "onnxruntime-gpu") return std::nullopt;
            out.framework = "onnxruntime";
            if (!v) break;
            // A CUDA feed named the major (onnxruntime-cuda-12): that variant, else PyPI's default.
            const std::string variant = out.cuda ? "cuda" + std::to_string(out.cuda->major()) : "";
            const rules::FrameworkBuild* build = db.framework_build("onnxruntime", *v, variant);
            if (build && out.cuda && build->cuda && build->cuda->major() != out.cuda->major())
                build = nullptr;
            if (build) {
                out.cuda = build->cuda;
                out.cudnn = build->cudnn;
                out.cudnn_major = build->cudnn_major;
                out.cudnn_optional = build->cudnn_optional;
                out.evidence = "onnxruntime-gpu " + v->str() + " on PyPI is the " +
                               (build->variant.empty() ? std::string("default") : build->variant) +
                               " build";
            }
            break;
        }
        case Family::cupy:
            out.framework = "cupy";
            break;
        case Family::paddle: {
            out.framework = "paddlepaddle";
            // 2.6.2.post120: the release is what stands before ".post".
            auto release = version(p.version.substr(0, p.version.find(".post")));
            if (!release) break;
            // 3.x GPU wheels pull CUDA, cuDNN and NCCL in as nvidia-* pip packages
            // (rules/frameworks.json, the paddlepaddle 3.x rows' note).
            out.bundles_libraries = release->major() >= 3;
            const rules::FrameworkBuild* build = nullptr;
            if (out.cuda) {
                // The suffix or the index named the CUDA; its row adds the cuDNN.
                const std::string digits = cuda_digits(out.cuda->truncated(2).str());
                build = db.framework_build("paddlepaddle", *release, "post" + digits);
                if (!build) build = db.framework_build("paddlepaddle", *release, "cu" + digits);
            } else {
                // Neither: pip takes the build PyPI serves for the release.
                build = db.framework_build("paddlepaddle", *release, "");
                if (build && build->cuda) {
                    out.cuda = build->cuda;
                    out.evidence = "paddlepaddle-gpu " + release->str() + " on PyPI is the " +
                                   build->variant + " build";
                }
            }
            if (build) {
                out.cudnn = build->cudnn;
                out.cudnn_major = build->cudnn_major;
            }
            break;
        }
        case Family::tensorrt: {
            out.framework = "tensorrt";
            out.bundles_libraries = true;
            // tensorrt-llm: each release's wheel is built for one CUDA (1.1: 12.9, 1.2: 13.0).
            if (p.name != "tensorrt-llm" || !v) break;
            out.framework = "tensorrt-llm";
            const rules::FrameworkBuild* build = db.framework_build("tensorrt-llm", *v, "");
            if (build && build->cuda && !out.cuda) {
                out.cuda = build->cuda;
                out.evidence = "the tensorrt-llm " + v->str() + " wheel is built for CUDA " +
                               build->cuda->str();
            }
            break;
        }
        case Family::cntk: {
            out.framework = "cntk";
            // PyPI's `cntk` is the CPU build; the GPU one is `cntk-gpu` (2.5 on) or, before
            // that, a wheel from cntk.ai/PythonWheel/GPU/. Either loads the system CUDA.
            if (p.name != "cntk-gpu" && p.word.find("/GPU/") == std::string::npos) {
                out.cpu_only = true;
                break;
            }
            const rules::FrameworkBuild* build =
                v ? db.framework_build("cntk", *v, "gpu") : nullptr;
            if (build && build->cuda) {
                out.cuda = build->cuda;
                out.cudnn = build->cudnn;
                out.cudnn_major = build->cudnn_major;
                out.evidence =
                    "the CNTK " + v->str() + " GPU build uses CUDA " + build->cuda->str();
            }
            break;
        }
        case Family::nvidia_lib:
            out.framework = p.name;
            out.bundles_libraries = true;
            break;
        case Family::none:
            return catalog_stack(p, db, std::move(out));
    }
    if (out.cudnn && !out.cudnn_major) out.cudnn_major = out.cudnn->major();
    return out;
}

std::optional<dockerfile::Package> pulled_framework(const dockerfile::Package& p,
                                                    const dockerfile::StageFacts& stage,
                                                    const rules::Database& db) {
    if (p.manager != dockerfile::Manager::pip || family_of(p) != Family::none) return std::nullopt;
    const auto v = public_version(p.version);
    if (!v) return std::nullopt;
    const rules::FrameworkBuild* build = db.build_for_package(p.name, *v);
    if (!build || build->package != p.name) return std::nullopt;
    for (const auto& requirement : build->requirements) {
        if (!requirement.spec.starts_with("==")) continue;
        dockerfile::Package pulled = p;
        pulled.name = requirement.name;
        pulled.extras.clear();
        pulled.spec = requirement.spec;
        pulled.version = requirement.spec.substr(2);
        pulled.pinned = true;
        pulled.cuda.clear();
        pulled.cuda_evidence.clear();
        pulled.pypi_also = false;
        pulled.word = p.word + " (requires " + requirement.name + requirement.spec + ")";
        const Family family = family_of(pulled);
        if (family == Family::none || family == Family::nvidia_lib) continue;
        const bool installed_here =
            std::any_of(stage.packages.begin(), stage.packages.end(),
                        [&](const dockerfile::Package& q) { return family_of(q) == family; });
        if (installed_here) return std::nullopt;
        return pulled;
    }
    return std::nullopt;
}

std::vector<std::size_t> shipped_stages(const dockerfile::Facts& facts) {
    std::vector<std::size_t> out;
    std::optional<std::size_t> stage = facts.build.final_stage;
    while (stage && out.size() <= facts.stages.size()) {
        out.push_back(*stage);
        stage = facts.stages.at(*stage).parent;
    }
    return out;
}

std::string run_text(const dockerfile::Facts& facts, const dockerfile::RunStep& run) {
    const auto& instruction = facts.dockerfile.instructions.at(run.instruction);
    std::string text = instruction.original;
    for (const auto& doc : instruction.heredocs) text += "\n" + doc.content;
    return text;
}

std::string join(const std::vector<std::string>& items, const std::string& separator) {
    std::string text;
    for (const auto& item : items) text += (text.empty() ? "" : separator) + item;
    return text;
}

namespace {

// `nvcc --version`, `gcc -v`: a tool asked what it is compiles nothing.
bool only_asks_version(const std::vector<std::string>& words) {
    if (words.size() < 2) return false;
    return std::all_of(words.begin() + 1, words.end(), [](const std::string& w) {
        return w == "--version" || w == "-V" || w == "-v" || w == "--help" || w == "-h" ||
               w == "-dumpversion" || w == "-dumpmachine";
    });
}

bool has_word(const std::string& text, std::string_view word) {
    for (std::size_t pos = text.find(word); pos != std::string::npos;
         pos = text.find(word, pos + 1)) {
        auto boundary = [](char c) {
            return !(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-');
        };
        const bool left = pos == 0 || boundary(text[pos - 1]);
        const std::size_t end = pos + word.size();
        const bool right = end >= text.size() || boundary(text[end]);
        if (left && right) return true;
    }
    return false;
}

// A self-extracting installer of prebuilt binaries: conda distributions, CMake's .sh.
bool binary_installer(const std::string& path) {
    std::string name = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (std::string_view prefix :
         {"miniconda", "anaconda", "miniforge", "mambaforge", "micromamba", "cmake-"}) {
        if (name.starts_with(prefix)) return true;
    }
    return false;
}

bool builds_in(const dockerfile::Facts& facts, std::size_t index, const rules::Database& db) {
    const auto& stage = facts.build.stages.at(index);
    // A stage named for building (build, builder, devel, dev) says what it is for.
    for (std::string_view word : {"build", "builder", "devel", "dev", "compile"}) {
        if (has_word(stage.name, word)) return true;
    }
    for (const auto& v : stage.env) {
        for (std::string_view name :
             {"TORCH_CUDA_ARCH_LIST", "FORCE_CUDA", "CUDA_ARCH_LIST", "CMAKE_CUDA_ARCHITECTURES",
              "TORCH_NVCC_FLAGS", "CUDA_NVCC_FLAGS", "NVCC_FLAGS", "CMAKE_ARGS"}) {
            if (v.name == name) return true;
        }
    }
    for (const auto& a : stage.args) {
        if (a.name == "TORCH_CUDA_ARCH_LIST" || a.name == "FORCE_CUDA") return true;
    }
    for (const auto& run : stage.runs) {
        const std::string text = run_text(facts, run);
        for (std::string_view word :
             {"build_ext", "bdist_wheel", "setup.py", "TORCH_CUDA_ARCH_LIST", "FORCE_CUDA",
              "CMAKE_ARGS", "--no-build-isolation", "--cuda_ext", "BUILD_EXT", "DS_BUILD_OPS"}) {
            if (has_word(text, word)) return true;
        }
        for (const auto& command : run.commands) {
            if (command.words.empty()) continue;
            const std::string& w0 = command.words[0];
            const std::string program =
                w0.substr(w0.rfind('/') == std::string::npos ? 0 : w0.rfind('/') + 1);
            for (std::string_view tool : {"nvcc", "cmake", "make", "ninja", "bazel", "configure",
                                          "gcc", "g++", "cc", "c++"}) {
                if (program == tool && !only_asks_version(command.words)) return true;
            }
            for (const auto& w : command.words) {
                if (w == "-e" || w == "--editable") return true;
            }
            // A project's own install script (bash install_x.sh, ./build.sh): cuvet cannot see
            // inside. Binary installers (Miniconda, CMake's .sh) compile nothing.
            const bool shell = program == "bash" || program == "sh";
            if (shell && command.words.size() > 1 && !command.words[1].starts_with("-") &&
                !binary_installer(command.words[1])) {
                return true;
            }
            // Run by path: ./build.sh, /tmp/build/setup-build.bash.
            if (w0.find('/') != std::string::npos &&
                (w0.ends_with(".sh") || w0.ends_with(".bash")) && !binary_installer(w0)) {
                return true;
            }
        }
    }
    const auto& sf = facts.stages.at(index);
    for (const auto& r : sf.requirements) {
        if (!r.constraints) {
            return true;  // may build extensions; cuvet cannot tell
        }
    }
    for (const auto& p : sf.packages) {
        // jaxlib on the system CUDA runs ptxas/nvlink from the toolkit; source-only packages
        // and JIT-compiled ops (pycuda, flash-attn, DeepSpeed, CuPy from source) need nvcc.
        if ((p.name == "jaxlib" && p.version.find("+cuda") != std::string::npos) ||
            p.extras.find("_local") != std::string::npos) {
            return true;
        }
        if (p.manager == dockerfile::Manager::apt) continue;
        const auto* row =
            db.python_package(p.name, p.manager == dockerfile::Manager::conda ? "conda" : "pypi");
        if (row && row->needs_toolkit) return true;
    }
    return false;
}

}  // namespace

bool stage_builds_code(const dockerfile::Facts& facts, std::size_t stage,
                       const rules::Database& db) {
    std::optional<std::size_t> s = stage;
    for (std::size_t guard = 0; s && guard <= facts.stages.size(); ++guard) {
        if (builds_in(facts, *s, db)) return true;
        s = facts.stages.at(*s).parent;
    }
    return false;
}

report::Finding finding(const dockerfile::Facts& facts, const std::string& id, int line,
                        int end_line) {
    report::Finding f;
    f.id = id;
    report::Location location;
    location.file = facts.dockerfile.name;
    location.line = line;
    location.end_line = end_line > 0 ? end_line : line;
    f.locations.push_back(location);
    return f;
}

}  // namespace cuvet::checks::lint
