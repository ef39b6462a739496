#include "checks/lint/lint_support.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>

#include "cuvet/core/ascii.hpp"
#include "cuvet/frameworks/framework.hpp"
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
                    const auto* known = frameworks::find(base.framework);
                    out.evidence = (known ? std::string(known->display) : base.framework) + " " +
                                   v->str() + " tested build configuration";
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

// By name for every manager, as conda-forge and apt reuse the pip names (conda's
// tensorflow-gpu and cupy, apt's tensorrt).
std::optional<rules::WheelMatch> framework_wheel(const dockerfile::Package& p,
                                                 const rules::Database& db) {
    return db.framework_catalog().wheel(p.name);
}

bool is_framework(const dockerfile::Package& p, const rules::Database& db) {
    return framework_wheel(p, db).has_value();
}

bool is_nvidia_library_wheel(const dockerfile::Package& p) {
    const std::string& n = p.name;
    return n.starts_with("nvidia-") &&
           (n.ends_with("-cu11") || n.ends_with("-cu12") || n.ends_with("-cu13"));
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
    // NVIDIA's pip wheels are nvidia-cudnn-cuNN; nvidia-cudnn-frontend is the front-end API's
    // Python binding, which loads whatever cuDNN is installed.
    return p.name.starts_with("libcudnn") || p.name.starts_with("cudnn") ||
           p.name == "nvidia-cudnn" || p.name.starts_with("nvidia-cudnn-cu");
}

namespace {

// A word that names a CUDA build: cu121, cuda12, cu12x, cuda$CUDA_VERSION.
bool is_cuda_build_word(std::string_view word) {
    if (word.starts_with("cuda")) {
        word.remove_prefix(4);
    } else if (word.starts_with("cu")) {
        word.remove_prefix(2);
    } else {
        return false;
    }
    if (word.starts_with('$')) return true;  // bagua-cuda$CUDA_VERSION_BAGUA
    if (word.ends_with('x')) word.remove_suffix(1);
    if (word.size() < 2 || word.size() > 3) return false;
    return std::all_of(word.begin(), word.end(),
                       [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

}  // namespace

bool names_cuda_build(std::string_view n) {
    const std::size_t dash = n.rfind('-');
    return dash != std::string_view::npos && is_cuda_build_word(n.substr(dash + 1));
}

namespace {

// Each extra, trimmed: "cuda12, cli" → {"cuda12", "cli"}.
std::vector<std::string> extras_of(const std::string& extras) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= extras.size()) {
        const std::size_t comma = extras.find(',', start);
        std::string word = extras.substr(start, comma - start);
        std::erase(word, ' ');
        if (!word.empty()) out.push_back(std::move(word));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return out;
}

// `extra` among the package's extras, as a whole word: rembg[gpu,cli] has gpu.
bool has_extra(const dockerfile::Package& p, const std::string& extra) {
    const auto extras = extras_of(p.extras);
    return std::find(extras.begin(), extras.end(), extra) != extras.end();
}

bool any_extra_starts_with(const std::string& extras, const std::vector<std::string>& prefixes) {
    for (const auto& extra : extras_of(extras))
        for (const auto& prefix : prefixes)
            if (extra.starts_with(prefix)) return true;
    return false;
}

// An extra that selects a CUDA build by name: mlx[cuda], flash-attn-4[cu13], foo[cuda12x].
bool extra_names_cuda(const std::string& extra) {
    return extra == "cuda" || is_cuda_build_word(extra);
}

bool any_extra_contains(const std::string& extras, const std::vector<std::string>& parts) {
    for (const auto& extra : extras_of(extras))
        for (const auto& part : parts)
            if (extra.find(part) != std::string::npos) return true;
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
        // cpu_only: no GPU code; jit_kernels: GPU code that another package compiles at run time.
        if (row->role == "cpu_only" || row->role == "jit_kernels") return false;
        // rembg[gpu] pulls onnxruntime-gpu; rembg alone the CPU onnxruntime.
        if (!row->cuda_extras.empty()) {
            return std::any_of(row->cuda_extras.begin(), row->cuda_extras.end(),
                               [&](const std::string& extra) { return has_extra(p, extra); });
        }
        // llama-cpp-python's CUDA builds come only from its own index; PyPI's is a source build.
        if (!row->cuda_wheel_index.empty()) return p.index_url.starts_with(row->cuda_wheel_index);
        // A framework whose plain package is CPU-only: its extras select the GPU build.
        const auto match = framework_wheel(p, db);
        if (row->role == "framework" && match && match->policy->gpu == "extras")
            return any_extra_starts_with(p.extras, match->policy->gpu_extras) || !p.cuda.empty();
        return true;
    }
    if (names_cuda_build(p.name)) return true;
    // A package the rules do not know whose extra asks for its CUDA build (mlx[cuda]): the
    // project says itself that the install depends on a CUDA release.
    const auto extras = extras_of(p.extras);
    if (std::any_of(extras.begin(), extras.end(), extra_names_cuda)) return true;
    // Extensions the CUDA indexes serve per CUDA build (torch-scatter, fbgemm-gpu).
    return !p.cuda.empty() && p.cuda != "cpu" &&
           (db.framework_catalog().is_extension_name(p.name) || p.name.ends_with("-gpu"));
}

bool clones_framework_repository(const dockerfile::Facts& facts, std::size_t stage,
                                 const rules::Database& db, bool whole_name) {
    for (const auto& run : facts.build.stages.at(stage).runs) {
        for (const auto& command : run.commands) {
            const auto& w = command.words;
            if (w.size() < 3 || !w[0].ends_with("git") || w[1] != "clone") continue;
            for (std::size_t i = 2; i < w.size(); ++i) {
                if (w[i].find("://") == std::string::npos && !w[i].starts_with("git@")) continue;
                std::string repo = w[i];
                if (repo.ends_with(".git")) repo.resize(repo.size() - 4);
                const std::string name = ascii_lower(repo.substr(repo.rfind('/') + 1));
                for (const auto& record : db.framework_catalog().records()) {
                    if (whole_name &&
                        (name == record.framework || name.ends_with("-" + record.framework)))
                        return true;
                    for (const auto& word : record.name_words) {
                        if (whole_name ? name == word || name.ends_with("-" + word)
                                       : name.find(word) != std::string::npos)
                            return true;
                    }
                }
            }
        }
    }
    return false;
}

bool extra_fixes_cuda_major(const dockerfile::Package& p) {
    const auto extras = extras_of(p.extras);
    return std::any_of(extras.begin(), extras.end(),
                       [](const std::string& extra) { return is_cuda_build_word(extra); });
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

// Hosts that serve a framework's own builds; a wheel URL elsewhere is somebody's rebuild.
bool third_party_wheel(const dockerfile::Package& p, bool known, const rules::Database& db) {
    const std::string& url = p.word;
    const auto scheme = url.find("://");
    if (scheme == std::string::npos || !url.ends_with(".whl") || !known) return false;
    const std::string rest = url.substr(scheme + 3);
    const std::string host = rest.substr(0, rest.find('/'));
    // PyPI's mirrors keep its file layout (…/packages/xx/yy/<hash>/name.whl): PyPI's own bits.
    if (rest.find("/packages/") != std::string::npos) return false;
    // PyPI and NVIDIA's own hosts, and each framework's (rules/frameworks.json wheel_hosts).
    for (std::string_view official : {"files.pythonhosted.org", "pypi.org", "pypi.python.org",
                                      "pypi.nvidia.com", "developer.download.nvidia.com"}) {
        if (host == official) return false;
    }
    if (db.framework_catalog().official_wheel_host(host)) return false;
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
    const auto match = db.framework_catalog().pip(p.name);
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

namespace {

// A variant template filled with a CUDA release: "cu{cuda_nodot}" → "cu121" for 12.1.
std::string fill_variant(std::string variant, const std::optional<rules::Version>& cuda) {
    if (!cuda) return variant;
    const std::string major = std::to_string(cuda->major());
    const std::string nodot = major + std::to_string(cuda->size() >= 2 ? cuda->minor() : 0);
    for (auto [placeholder, value] :
         {std::pair<std::string_view, const std::string&>{"{cuda_major}", major},
          {"{cuda_nodot}", nodot}}) {
        for (auto at = variant.find(placeholder); at != std::string::npos;
             at = variant.find(placeholder))
            variant.replace(at, placeholder.size(), value);
    }
    return variant;
}

// A build row's package and variant as people write them: a local version where the package's
// builds are named by one (jaxlib+cuda11.cudnn86), else "jax-cuda12-plugin (cuda12)".
std::string row_build(const rules::FrameworkBuild& build, const rules::Database& db) {
    const auto spelled = db.framework_catalog().pip(build.package);
    if (spelled && !spelled->spelling->local_versions.empty())
        return build.package + "+" + build.variant;
    return build.package + " (" + build.variant + ")";
}

// The policy's evidence with its placeholders filled from the package and the build row.
std::string fill_evidence(std::string text, const dockerfile::Package& p,
                          const rules::Version& release, const rules::FrameworkBuild& build,
                          const rules::Database& db) {
    const std::string values[][2] = {
        {"{package}", p.name},
        {"{version}", release.str()},
        {"{variant}", build.variant.empty() ? std::string("default") : build.variant},
        {"{cuda}", build.cuda ? build.cuda->str() : std::string("?")},
        {"{row_build}", row_build(build, db)}};
    for (const auto& [placeholder, value] : values) {
        for (auto at = text.find(placeholder); at != std::string::npos;
             at = text.find(placeholder, at + value.size()))
            text.replace(at, placeholder.size(), value);
    }
    return text;
}

// The release a pinned version names: without the local tail that states its CUDA build
// (2.6.2.post120 → 2.6.2) or a local version (2.1.0+cu121 → 2.1.0).
std::optional<rules::Version> release_of(const dockerfile::Package& p,
                                         const rules::WheelMatch& match) {
    std::string text = p.version;
    const rules::PackageMatch spelled{match.framework, match.spelling, "", ""};
    if (auto local = rules::FrameworkCatalog::local_version_cuda(spelled, text))
        text.resize(text.size() - local->tail.size());
    return public_version(text);
}

// Whether the install is a GPU build at all, by the policy's `gpu`.
bool gpu_build(const dockerfile::Package& p, const rules::WheelMatch& match) {
    const rules::WheelPolicy& policy = *match.policy;
    if (policy.gpu == "never") return false;
    if (policy.gpu != "extras") return true;
    // A spelling served per CUDA build (jaxlib==0.4.20+cuda12…, or from a CUDA index).
    const bool stated = !match.spelling->local_versions.empty() && !p.cuda.empty();
    return stated || any_extra_starts_with(p.extras, policy.gpu_extras);
}

// The release's row among the framework's builds, as the policy finds it; nullptr: unknown.
const rules::FrameworkBuild* build_row(const dockerfile::Package& p,
                                       const rules::WheelPolicy& policy,
                                       const std::string& framework,
                                       const std::optional<rules::Version>& release,
                                       const std::optional<rules::Version>& cuda,
                                       const rules::Database& db) {
    if (!release) return nullptr;
    if (!policy.selected_by.empty()) {
        // "jax[cuda]": only that extra by itself selects these rows.
        const auto open = policy.selected_by.find('[');
        const std::string extra =
            policy.selected_by.substr(open + 1, policy.selected_by.size() - open - 2);
        if (!has_extra(p, extra)) return nullptr;
        for (const rules::FrameworkBuild* build : db.framework_builds(framework, *release))
            if (build->selected_by == policy.selected_by) return build;
        return nullptr;
    }
    if (policy.any_build) {
        auto builds = db.framework_builds(framework, *release);
        return builds.empty() ? nullptr : builds.front();
    }
    const rules::FrameworkBuild* build = nullptr;
    for (const auto& variant : policy.variants) {
        // A template needs the CUDA the index or name states; a literal ("gpu") does not.
        if (variant.find('{') != std::string::npos && !cuda) continue;
        if ((build = db.framework_build(framework, *release, fill_variant(variant, cuda)))) break;
    }
    if (!build && !cuda && policy.default_build)
        build = db.framework_build(framework, *release, "");
    if (build && cuda && build->cuda && build->cuda->major() != cuda->major()) return nullptr;
    return build;
}

}  // namespace

std::optional<WheelStack> wheel_stack(const dockerfile::Package& p, const rules::Database& db) {
    if (p.manager != dockerfile::Manager::pip) return std::nullopt;
    WheelStack out;
    const auto match = framework_wheel(p, db);
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
    const bool rebuild = third_party_wheel(p, match || is_nvidia_library_wheel(p), db);
    if (rebuild && !out.cuda) {
        out.cuda = cuda_named_in_url(p.word);
        if (out.cuda) out.evidence = "the wheel's URL names CUDA " + out.cuda->str();
    }
    if (is_nvidia_library_wheel(p)) {
        out.framework = p.name;
        out.bundles_libraries = true;
        return out;
    }
    if (!match) return catalog_stack(p, db, std::move(out));
    const rules::WheelPolicy& policy = *match->policy;
    out.framework = match->framework->framework;
    out.policy = match->policy;
    out.bundles_libraries = policy.libraries == "bundled";
    // A companion or a placeholder shares the framework's libraries, not its build rows.
    if (match->kind != rules::WheelMatch::Kind::spelling) return out;
    if (!gpu_build(p, *match)) return std::nullopt;
    if (policy.gpu == "url" &&
        std::none_of(policy.gpu_url_words.begin(), policy.gpu_url_words.end(),
                     [&](const auto& word) { return p.word.find(word) != std::string::npos; })) {
        out.cpu_only = true;
        return out;
    }
    const auto release = rebuild ? std::nullopt : release_of(p, *match);
    if (any_extra_starts_with(p.extras, policy.bundled_with_extras) ||
        (policy.bundled_from && (!release || *release >= *policy.bundled_from)))
        out.bundles_libraries = true;
    if (any_extra_contains(p.extras, policy.system_extras)) out.bundles_libraries = false;
    if (policy.file_wheel_loads_system && is_wheel_file(p)) out.bundles_libraries = false;
    out.system_cudnn =
        policy.system_cudnn && !(policy.cpu_before && release && *release < *policy.cpu_before);
    // A local version that states the cuDNN too (jaxlib 0.4.20+cuda11.cudnn86).
    const rules::PackageMatch spelled{match->framework, match->spelling, "", ""};
    if (auto local = rules::FrameworkCatalog::local_version_cuda(spelled, p.version);
        local && !local->cudnn.empty())
        out.cudnn = rules::Version::parse(local->cudnn);
    const rules::FrameworkBuild* build = build_row(p, policy, out.framework, release, out.cuda, db);
    if (build) {
        // A row an extra selects decides the whole build; the others add what the index or the
        // name left open, unless the policy says the row decides.
        const bool decides = policy.build_decides_cuda || !policy.selected_by.empty();
        if (decides || (!out.cuda && build->cuda)) {
            out.cuda = build->cuda;
            out.evidence = fill_evidence(policy.evidence, p, *release, *build, db);
        }
        out.cudnn = build->cudnn;
        out.cudnn_major = build->cudnn_major;
        out.cudnn_optional = build->cudnn_optional;
        if (!policy.selected_by.empty()) {
            // The row's package decides whose libraries it loads (jaxlib+cuda: the system's).
            if (auto row = db.framework_catalog().wheel(build->package))
                out.bundles_libraries = row->policy->libraries == "bundled";
        }
    }
    if (out.cudnn && !out.cudnn_major) out.cudnn_major = out.cudnn->major();
    return out;
}

namespace {

// The newest release of a package that the rules' build rows pin a framework for.
std::optional<rules::Version> newest_release_pinning(const std::string& name,
                                                     const rules::Database& db) {
    std::optional<rules::Version> newest;
    for (const auto& build : db.framework_builds()) {
        if (build.package != name || build.requirements.empty()) continue;
        const auto& last = build.until ? build.until : build.version;
        if (last && (!newest || *last > *newest)) newest = last;
    }
    return newest;
}

}  // namespace

std::optional<dockerfile::Package> pulled_framework(const dockerfile::Package& p,
                                                    const dockerfile::StageFacts& stage,
                                                    const rules::Database& db) {
    if (p.manager != dockerfile::Manager::pip || is_framework(p, db) || is_nvidia_library_wheel(p))
        return std::nullopt;
    auto v = public_version(p.version);
    // Unpinned from PyPI, pip takes the newest release: past the newest the rules know, whose
    // pin the releases after it keep or raise (an unpinned vllm brings a CUDA 12/13 torch).
    const bool unpinned =
        !v && p.spec.empty() && p.index_url.empty() && p.word.find('/') == std::string::npos;
    if (unpinned) v = newest_release_pinning(p.name, db);
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
        pulled.word =
            p.word +
            (unpinned ? " (unpinned: its newest release the rules know, " + v->str() + ", requires "
                      : " (requires ") +
            requirement.name + requirement.spec + ")";
        const auto framework = framework_wheel(pulled, db);
        if (!framework) continue;
        const bool installed_here =
            std::any_of(stage.packages.begin(), stage.packages.end(), [&](const auto& q) {
                const auto other = framework_wheel(q, db);
                return other && other->framework == framework->framework;
            });
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

// A CMake definition whose name ends in cuda or cublas, set on: -DLLAMA_CUBLAS=on,
// -DGGML_CUDA=ON, -DWITH_CUDA=1. A shell variable such as USE_CUDA=1 is no build switch.
bool cmake_turns_cuda_on(const std::string& text) {
    for (std::size_t at = text.find("-d"); at != std::string::npos; at = text.find("-d", at + 2)) {
        std::size_t end = at + 2;
        while (end < text.size() &&
               (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_'))
            ++end;
        const std::string name = text.substr(at + 2, end - at - 2);
        // -DGGML_CUDA=on, -DLLAMA_CUBLAS=on, -DUSE_CUDNN=1 (cuDNN needs the CUDA build).
        if (!name.ends_with("cuda") && !name.ends_with("cublas") && !name.ends_with("cudnn"))
            continue;
        if (end >= text.size() || text[end] != '=') continue;
        std::size_t value_end = end + 1;
        while (value_end < text.size() && std::isalnum(static_cast<unsigned char>(text[value_end])))
            ++value_end;
        const std::string value = text.substr(end + 1, value_end - end - 1);
        if (value == "on" || value == "1" || value == "true" || value == "yes") return true;
    }
    return false;
}

bool is_wheel_file(const dockerfile::Package& p) {
    return p.manager == dockerfile::Manager::pip && p.word.ends_with(".whl") &&
           p.word.find("://") == std::string::npos;
}

bool builds_cuda_from_source(const dockerfile::Facts& facts, std::size_t stage,
                             const dockerfile::Package& p, const rules::Database& db) {
    if (p.manager != dockerfile::Manager::pip) return false;
    const auto* row = db.python_package(p.name, "pypi");
    if (!row || row->cuda_wheel_index.empty() || p.index_url.starts_with(row->cuda_wheel_index))
        return false;
    const auto& built = facts.build.stages.at(stage);
    for (const auto& v : built.env) {
        if (v.name == "CMAKE_ARGS" && v.line < p.line && cmake_turns_cuda_on(ascii_lower(v.value)))
            return true;
    }
    for (const auto& run : built.runs) {
        if (run.start_line <= p.line && p.line <= run.end_line)
            return cmake_turns_cuda_on(ascii_lower(run_text(facts, run)));
    }
    return false;
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

bool local_build_needs_toolkit(const dockerfile::Package& p, const rules::Database& db) {
    const auto match = framework_wheel(p, db);
    if (!match || match->kind != rules::WheelMatch::Kind::spelling ||
        !match->policy->local_build_needs_toolkit)
        return false;
    const rules::PackageMatch spelled{match->framework, match->spelling, "", ""};
    return rules::FrameworkCatalog::local_version_cuda(spelled, p.version).has_value();
}

// A package the row's release requires, with the extras installed, compiles with nvcc.
bool pulls_toolkit_user(const rules::PythonPackage& row, const dockerfile::Package& p,
                        const rules::Database& db) {
    for (const auto& r : row.requires_packages) {
        const auto* required = db.python_package(r.package, "pypi");
        if (!required || !required->needs_toolkit) continue;
        if (r.extras.empty() || std::any_of(r.extras.begin(), r.extras.end(),
                                            [&](const auto& extra) { return has_extra(p, extra); }))
            return true;
    }
    return false;
}

// A stage that installs a build system and a CUDA library's development files from the
// system's packages (ninja-build, libnccl-dev): an image made to build CUDA code in, whose
// -devel base is its purpose even when the Dockerfile compiles nothing itself. A compiler
// alone (build-essential) is what any pip sdist asks for, and says less.
bool is_build_environment(const dockerfile::StageFacts& stage) {
    bool toolchain = false;
    bool cuda_headers = false;
    for (const auto& p : stage.packages) {
        if (p.manager != dockerfile::Manager::apt) continue;
        const std::string& n = p.name;
        toolchain = toolchain || n == "cmake" || n == "ninja-build";
        const bool dev = n.ends_with("-dev") || n.ends_with("-devel");
        cuda_headers =
            cuda_headers || (dev && (n.starts_with("libnccl") || n.starts_with("libcudnn") ||
                                     n.starts_with("cuda-") || n.starts_with("libcublas") ||
                                     n.starts_with("libcusparse") || n.starts_with("libcufft") ||
                                     n.starts_with("libcurand") || n.starts_with("libcusolver") ||
                                     n.starts_with("libnvinfer")));
    }
    return toolchain && cuda_headers;
}

bool builds_in(const dockerfile::Facts& facts, std::size_t index, const rules::Database& db) {
    const auto& stage = facts.build.stages.at(index);
    // A stage named for building (build, builder, devel, dev) says what it is for.
    for (std::string_view word : {"build", "builder", "devel", "dev", "compile"}) {
        if (has_word(stage.name, word)) return true;
    }
    // The frameworks' extension builders' variables (rules/frameworks.json build_variables)
    // and CUDA's and CMake's own.
    const std::vector<std::string> framework_variables = db.framework_catalog().build_variables();
    auto is_framework_variable = [&](const std::string& name) {
        return std::find(framework_variables.begin(), framework_variables.end(), name) !=
               framework_variables.end();
    };
    for (const auto& v : stage.env) {
        if (is_framework_variable(v.name)) return true;
        for (std::string_view name : {"FORCE_CUDA", "CUDA_ARCH_LIST", "CMAKE_CUDA_ARCHITECTURES",
                                      "CUDA_NVCC_FLAGS", "NVCC_FLAGS", "CMAKE_ARGS"}) {
            if (v.name == name) return true;
        }
    }
    for (const auto& a : stage.args) {
        if (is_framework_variable(a.name) || a.name == "FORCE_CUDA") return true;
    }
    for (const auto& run : stage.runs) {
        const std::string text = run_text(facts, run);
        for (const auto& name : framework_variables) {
            if (has_word(text, name)) return true;
        }
        for (std::string_view word :
             {"build_ext", "bdist_wheel", "setup.py", "FORCE_CUDA", "CMAKE_ARGS",
              "--no-build-isolation", "--cuda_ext", "BUILD_EXT", "DS_BUILD_OPS"}) {
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
        // A build on the system CUDA that runs ptxas/nvlink from the toolkit (the policy's
        // local_build_needs_toolkit, jax[cudaNN_local]); source-only packages and JIT-compiled
        // ops (pycuda, flash-attn, DeepSpeed, CuPy from source) need nvcc.
        if (local_build_needs_toolkit(p, db) || p.extras.find("_local") != std::string::npos) {
            return true;
        }
        if (p.manager == dockerfile::Manager::apt) continue;
        const auto* row =
            db.python_package(p.name, p.manager == dockerfile::Manager::conda ? "conda" : "pypi");
        if (row && row->needs_toolkit) return true;
        // A requirement that compiles with nvcc (sglang[srt] pulls flashinfer-python).
        if (row && pulls_toolkit_user(*row, p, db)) return true;
    }
    return is_build_environment(sf);
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
