// CUVL01: a framework wheel (or conda CUDA package) built for a CUDA/cuDNN
// other than the base image provides.
#include <algorithm>
#include <set>

#include "checks/lint/extension_framework_build.hpp"
#include "checks/lint/lint_support.hpp"
#include "checks/lint/stage_built_wheel.hpp"
#include "cuvet/checks/registry.hpp"
#include "cuvet/frameworks/framework.hpp"
#include "cuvet/rules/framework_catalog.hpp"

namespace cuvet::checks {
namespace cuvl01 {

using dockerfile::Manager;

// CUDA 11 kept one soname for all minors with a ".0" suffix; 12 and 13 use the major alone;
// up to 10.2 each minor had its own (libcudart.so.10.0, libcudart.so.9.2).
std::string cudart_soname(const rules::Version& cuda) {
    const int major = cuda.major();
    if (major <= 10) return "libcudart.so." + cuda.truncated(2).str();
    return "libcudart.so." + std::to_string(major) + (major == 11 ? ".0" : "");
}

std::string describe(const dockerfile::Package& p) { return p.word.empty() ? p.name : p.word; }

// What the user's code imports of the framework ("torch"); its catalog name without one.
std::string importer(const lint::WheelStack& wheel, const rules::Database& db) {
    const auto* record = db.framework_catalog().find(wheel.framework);
    return record && !record->import_names.empty() ? record->import_names.front() : wheel.framework;
}

// An error text with its {runtime} and {built} versions filled in.
std::string fill_versions(std::string text, const std::string& runtime, const std::string& built) {
    for (auto [placeholder, value] :
         {std::pair<std::string, const std::string&>{"{runtime}", runtime}, {"{built}", built}}) {
        for (auto at = text.find(placeholder); at != std::string::npos; at = text.find(placeholder))
            text.replace(at, placeholder.size(), value);
    }
    return text;
}

// How people write the framework ("PyTorch"); the catalog's name when the registry has none.
std::string display_name(const std::string& framework) {
    const auto* known = frameworks::find(framework);
    return known ? std::string(known->display) : framework;
}

// A build of `framework` for CUDA `cuda` that the rules know exists: the same
// release's variant when there is one, else the newest release built for that CUDA.
std::string existing_build(const rules::Database& db, const std::string& framework,
                           const std::string& display, const std::optional<rules::Version>& version,
                           const rules::Version& cuda, std::optional<int> cudnn_major = {}) {
    const rules::FrameworkBuild* best = nullptr;
    for (const auto& b : db.framework_builds()) {
        if (b.framework != framework || !b.cuda || !lint::same_cuda(*b.cuda, cuda) || !b.version)
            continue;
        // A build for the same CUDA but the same wrong cuDNN fixes nothing.
        if (cudnn_major && b.cudnn_major != cudnn_major &&
            !(b.cudnn && b.cudnn->major() == *cudnn_major))
            continue;
        if (version && b.matches(*version)) {
            return display + "==" + version->str() + " (" +
                   (b.variant.empty() ? "default" : b.variant) + " build)";
        }
        if (!best || *b.version > *best->version) best = &b;
    }
    if (!best) return {};
    // A retired name (tensorflow-gpu) is not the GPU build's name from its successor's first
    // release on.
    std::string name = display;
    if (const auto match = db.framework_catalog().wheel(display);
        match && !match->policy->retired_for.empty() &&
        *best->version >= *match->policy->retired_since)
        name = match->policy->retired_for;
    return name + " " + best->version->str() +
           (best->variant.empty() ? "" : " (" + best->variant + " build)");
}

// The release a pin names: "==2.3.0+cu124" → 2.3.0, "==2.8.*" → 2.8; nullopt for a range.
std::optional<rules::Version> pinned_release(const dockerfile::Package& p) {
    std::string text = p.version;
    if (text.empty() && p.spec.starts_with("==") && p.spec.ends_with(".*"))
        text = p.spec.substr(2, p.spec.size() - 4);
    return rules::Version::parse(text.substr(0, text.find('+')));
}

// A framework whose rows list every CUDA build of each release (policy `complete_builds`:
// PyTorch adds a newer CUDA and drops an older one from release to release). A pinned release
// asked for from one CUDA build only (`--index-url …/whl/cu124`, `+cu124`) whose CUDA lies
// outside the builds the rules list for that release, or that no release has (cu122), was
// never published: pip finds no matching distribution and the image does not build. A CUDA
// between two listed builds stays unknown.
std::optional<report::Finding> unpublished_build(const dockerfile::Facts& facts,
                                                 const dockerfile::Package& p,
                                                 const lint::WheelStack& wheel,
                                                 const rules::Database& db) {
    const auto match = lint::framework_wheel(p, db);
    if (!match || match->kind != rules::WheelMatch::Kind::spelling ||
        !match->policy->complete_builds || !wheel.cuda)
        return std::nullopt;
    const bool local_version = p.spec.find("+cu") != std::string::npos;
    if (p.pypi_also && !local_version) return std::nullopt;  // pip may take PyPI's build
    const auto release = pinned_release(p);
    if (!release) return std::nullopt;
    const rules::Version wanted = wheel.cuda->truncated(2);
    std::vector<rules::Version> built;
    bool variant_anywhere = false;
    for (const auto& b : db.framework_builds()) {
        if (b.framework != wheel.framework || !b.cuda || !b.version) continue;
        variant_anywhere = variant_anywhere || b.cuda->truncated(2) == wanted;
        if (b.matches(*release)) built.push_back(b.cuda->truncated(2));
    }
    if (built.empty()) return std::nullopt;
    std::sort(built.begin(), built.end());
    if (std::find(built.begin(), built.end(), wanted) != built.end()) return std::nullopt;
    if (variant_anywhere && wanted > built.front() && wanted < built.back()) return std::nullopt;
    std::vector<std::string> names;
    for (const auto& cuda : built) names.push_back("CUDA " + cuda.str());
    auto f = lint::finding(facts, "CUVL01", p.line, p.end_line);
    f.severity = report::Severity::error;
    f.message = describe(p) + " from the CUDA " + wanted.str() + " build (" + wheel.evidence +
                ") was never published: " + display_name(wheel.framework) + " built " +
                release->truncated(2).str() + " for " + lint::join(names, ", ") +
                " only, so pip finds no matching distribution and the image does not build.";
    f.evidence.push_back("rules/frameworks.json: the " + wheel.framework + " builds of " +
                         release->truncated(2).str());
    f.fix = "Install the release from one of the builds listed, or a release " +
            display_name(wheel.framework) + " built for CUDA " + wanted.str() + ".";
    return f;
}

// A framework that loads the system's CUDA, installed without a release the rules can read
// (pip install tensorflow-gpu): whichever release pip takes, it was built for one of the
// CUDA releases its build rows list. When none of them has the base's libcudart (CUDA 10.2:
// TensorFlow built for 10.0 and 10.1, none for 10.2), the GPU code cannot load, whatever the
// release.
std::optional<report::Finding> no_release_for_base(const dockerfile::Facts& facts,
                                                   const dockerfile::Package& p,
                                                   const lint::WheelStack& wheel,
                                                   const lint::BaseStack& base,
                                                   const rules::Database& db) {
    // Only a release left to pip, of a framework whose rows give every release its build
    // (any_build: TensorFlow's tested configurations); TensorRT's rows start at 8.0, so a
    // tensorrt-6.0.1.5 wheel is a release the rules do not know, not a mismatch.
    if (wheel.cuda || wheel.cpu_only || wheel.bundles_libraries || !base.cuda ||
        base.cuda->size() < 2 || !wheel.policy || !wheel.policy->any_build || !p.version.empty())
        return std::nullopt;
    const std::string wanted = cudart_soname(*base.cuda);
    std::set<std::string> built;
    for (const auto& b : db.framework_builds()) {
        if (b.framework != wheel.framework || !b.cuda) continue;
        // A row naming only the major (TensorFlow 1.5-1.12: CUDA "9") may be the base's minor.
        if (b.cuda->size() < 2 && b.cuda->major() == base.cuda->major()) return std::nullopt;
        if (b.cuda->size() < 2) continue;
        built.insert(b.cuda->truncated(2).str());
        if (cudart_soname(*b.cuda) == wanted) return std::nullopt;
    }
    if (built.empty()) return std::nullopt;
    auto f = lint::finding(facts, "CUVL01", p.line, p.end_line);
    f.severity = report::Severity::error;
    f.message = describe(p) + " loads the system's CUDA, but no " + display_name(wheel.framework) +
                " release was built for CUDA " + base.cuda->truncated(2).str() +
                ": whichever release pip takes looks for another libcudart than the base's " +
                wanted + ", so its GPU code fails to load.";
    f.evidence.push_back("base " + base.description + ", from the " + base.evidence);
    f.evidence.push_back("rules/frameworks.json: " + display_name(wheel.framework) +
                         " builds for CUDA " +
                         lint::join(std::vector<std::string>(built.begin(), built.end())));
    const std::string match = existing_build(db, wheel.framework, p.name, std::nullopt, *base.cuda);
    f.fix = "Use a base image for a CUDA " + display_name(wheel.framework) +
            " was built for, and pin the release built for it" +
            (match.empty() ? "." : " (" + match + ").");
    return f;
}

// pip keeps what is installed when the pin names its release: torch==2.1.0 on
// runpod/pytorch:2.1.0-py3.10-cuda11.8.0-… is "already satisfied" by the base's cu118 build (a
// pin without a local version matches any), so the wheel the pin would pick never comes.
bool base_already_has(const dockerfile::BaseFacts& base, const dockerfile::Package& p,
                      const lint::WheelStack& wheel) {
    return (base.kind == dockerfile::BaseKind::framework_cuda_tag ||
            base.kind == dockerfile::BaseKind::framework_release) &&
           p.pinned && !base.framework_version.empty() && p.version == base.framework_version &&
           wheel.framework == base.framework;
}

std::vector<report::Finding> run(const dockerfile::Facts& facts, const rules::Database& db) {
    std::vector<report::Finding> out = lint::extension_framework_mismatches(facts, db);
    for (auto& f : lint::stage_built_wheel_mismatches(facts, db)) out.push_back(std::move(f));
    std::set<std::pair<int, std::string>> reported;  // torch, torchvision, torchaudio: once per RUN
    for (const auto& stage : facts.stages) {
        const lint::BaseStack base = lint::base_stack(stage.base, db);
        if (!base.cuda) continue;
        // cuDNN that apt adds to a base without one is what system-library wheels load.
        std::optional<int> apt_cudnn;
        std::string apt_cudnn_word;
        for (const auto& p : stage.packages) {
            if (p.manager != Manager::apt || !lint::is_cudnn_package(p)) continue;
            if (auto major = lint::cudnn_major(p)) {
                apt_cudnn = major;
                apt_cudnn_word = p.word;
            }
        }
        for (const auto& p : stage.packages) {
            if (p.inherited) continue;
            std::optional<lint::WheelStack> wheel;
            if (p.manager == Manager::conda && !p.cuda.empty() && p.name != "cuda-version") {
                wheel.emplace();
                wheel->framework = p.name;
                wheel->cuda = rules::Version::parse(p.cuda);
                wheel->bundles_libraries = true;
                wheel->evidence = p.cuda_evidence;
            } else {
                wheel = lint::wheel_stack(p, db);
            }
            // A package in front of a framework (spleeter-gpu) brings the release it pins.
            std::optional<dockerfile::Package> pulled;
            if (!wheel && (pulled = lint::pulled_framework(p, stage, db)))
                wheel = lint::wheel_stack(*pulled, db);
            if (wheel && !pulled) {
                if (auto none = no_release_for_base(facts, p, *wheel, base, db)) {
                    if (reported.insert({p.line, "no release"}).second)
                        out.push_back(std::move(*none));
                    continue;
                }
            }
            if (!wheel || wheel->cpu_only || !wheel->cuda) continue;
            if (base_already_has(stage.base, p, *wheel)) continue;
            if (!pulled) {
                if (auto missing = unpublished_build(facts, p, *wheel, db)) {
                    if (reported.insert({p.line, "unpublished"}).second)
                        out.push_back(std::move(*missing));
                    continue;
                }
            }
            const dockerfile::Package& q = pulled ? *pulled : p;
            if (!reported.insert({q.line, wheel->framework + wheel->cuda->str()}).second) continue;
            const bool major_differs = base.cuda->major() != wheel->cuda->major();
            const std::string what =
                describe(q) + " is built for CUDA " + wheel->cuda->str() +
                (wheel->cudnn_major ? " / cuDNN " + std::to_string(*wheel->cudnn_major) : "");
            auto f = lint::finding(facts, "CUVL01", q.line, q.end_line);
            f.evidence.push_back("base " + base.description + ", from the " + base.evidence);
            f.evidence.push_back(what + " (" + wheel->evidence + ")");
            auto version = rules::Version::parse(q.version.substr(0, q.version.find('+')));
            if (wheel->bundles_libraries) {
                // The wheel loads its own CUDA and cuDNN, and a driver that runs the base's CUDA
                // runs any minor of that major (minor-version compatibility): torch cu117 on a
                // CUDA 11.8 base runs, and DeepSpeed accepts nvcc 11.4 with torch 11.7. Only
                // another major needs another driver, or breaks extensions compiled here.
                if (!major_differs) continue;
                // A framework that refuses to build extensions with another major's nvcc says so
                // in its own words (rules/frameworks.json error_texts, cuda_toolkit_mismatch).
                const rules::FrameworkErrorText* refusal =
                    stage.base.flavor == "devel"
                        ? db.framework_error_text(wheel->framework, "cuda_toolkit_mismatch",
                                                  version)
                        : nullptr;
                if (refusal && lint::stage_builds_code(facts, stage.stage, db)) {
                    f.severity = report::Severity::error;
                    f.message = what +
                                ", but this stage compiles extensions with the base's nvcc " +
                                base.cuda->truncated(2).str() + ": " + importer(*wheel, db) +
                                " refuses ('" +
                                fill_versions(refusal->message, base.cuda->truncated(2).str(),
                                              wheel->cuda->truncated(2).str()) +
                                "').";
                } else {
                    f.severity = report::Severity::warning;
                    f.message = what + "; the base image has CUDA " + base.cuda->str() +
                                ". The package runs its own CUDA libraries, so the base's are dead "
                                "weight and the "
                                "driver must support CUDA " +
                                wheel->cuda->str() + ".";
                }
                const std::string match =
                    existing_build(db, wheel->framework, q.name, version, *base.cuda);
                f.fix = match.empty()
                            ? "Use a base image for CUDA " + wheel->cuda->truncated(2).str() +
                                  " (or one without CUDA libraries, such as the -base flavour) so "
                                  "the two agree."
                            : "Install " + match +
                                  " to match the base, or use a base image for CUDA " +
                                  wheel->cuda->truncated(2).str() + ".";
            } else {
                // Up to CUDA 10.2 each minor had its own sonames (libcudart.so.10.0, .10.1):
                // there another minor is as missing as another major.
                const bool runtime_differs =
                    major_differs || (base.cuda->major() <= 10 && base.cuda->size() >= 2 &&
                                      wheel->cuda->size() >= 2 &&
                                      cudart_soname(*base.cuda) != cudart_soname(*wheel->cuda));
                std::optional<int> system_cudnn = base.cudnn_major;
                std::string cudnn_from = "the base image";
                if (!system_cudnn && apt_cudnn) {
                    system_cudnn = apt_cudnn;
                    cudnn_from = "apt " + apt_cudnn_word;
                    f.evidence.push_back("cuDNN " + std::to_string(*apt_cudnn) + " from " +
                                         cudnn_from);
                }
                // A build whose GPU path starts without cuDNN does not fail on another one.
                const bool system_cudnn_differs = system_cudnn && wheel->cudnn_major &&
                                                  !wheel->cudnn_optional &&
                                                  *system_cudnn != *wheel->cudnn_major;
                if (!runtime_differs && !system_cudnn_differs) continue;
                f.severity = report::Severity::error;
                f.message =
                    what + " and loads the system's libraries, but " +
                    (runtime_differs ? "the base image has CUDA " + base.cuda->str() + ": " +
                                           cudart_soname(*wheel->cuda) + " is missing"
                                     : cudnn_from + " brings cuDNN " +
                                           std::to_string(*system_cudnn) + ": libcudnn.so." +
                                           std::to_string(*wheel->cudnn_major) + " is missing") +
                    ", so its GPU code fails to load.";
                const std::string match =
                    existing_build(db, wheel->framework, q.name, std::nullopt, *base.cuda,
                                   runtime_differs ? std::nullopt : system_cudnn);
                const std::string wanted =
                    "CUDA " + wheel->cuda->truncated(2).str() +
                    (wheel->cudnn_major ? " and cuDNN " + std::to_string(*wheel->cudnn_major) : "");
                f.fix =
                    (!runtime_differs && cudnn_from != "the base image"
                         ? "Install cuDNN " + std::to_string(*wheel->cudnn_major) + " instead of " +
                               apt_cudnn_word
                         : "Use a base image with " + wanted) +
                    (match.empty() ? "."
                                   : ", or install " + match + ", built for the image's stack.");
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
    return i;
}

}  // namespace cuvl01

extern const LintCheck cuvl01_wheel_cuda_mismatch;
const LintCheck cuvl01_wheel_cuda_mismatch{cuvl01::info(), &cuvl01::run};

}  // namespace cuvet::checks
