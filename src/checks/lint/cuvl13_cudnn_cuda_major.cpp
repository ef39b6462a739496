// CUVL13: a cuDNN package (apt or conda) built for another CUDA major than the
// CUDA it will run with: libcudnn9-cuda-12 on a CUDA 13 base, a `+cuda11.8`
// package version on CUDA 12, conda cudnn against another cudatoolkit/cuda-version, an
// unpinned libcudnn8 that apt resolves to the CUDA 12 build on a CUDA 11 base.
#include <algorithm>
#include <map>
#include <set>

#include "checks/lint/lint_support.hpp"
#include "cuvet/checks/registry.hpp"

namespace cuvet::checks {
namespace cuvl13 {

using dockerfile::Manager;

struct Target {
    rules::Version cuda;
    std::string source;  // "the base image nvidia/cuda:13.0.1-…", "conda cudatoolkit=11.8"
};

// The CUDA the stage's libraries come from: conda's own toolkit for conda packages,
// otherwise the base image, or the CUDA libraries apt installs into a plain base.
std::optional<Target> target_cuda(const dockerfile::StageFacts& stage, const rules::Database& db,
                                  Manager manager) {
    if (manager == Manager::conda) {
        for (const auto& p : stage.packages) {
            if (p.manager == Manager::conda &&
                (p.name == "cudatoolkit" || p.name == "cuda-version") && !p.cuda.empty()) {
                if (auto v = rules::Version::parse(p.cuda)) return Target{*v, "conda " + p.word};
            }
        }
        return std::nullopt;  // a conda environment brings its own CUDA; the base says nothing
    }
    const lint::BaseStack base = lint::base_stack(stage.base, db);
    if (base.cuda) return Target{*base.cuda, "the base image " + stage.base.reference};
    for (const auto& p : stage.packages) {
        if (p.manager != Manager::apt || lint::is_cudnn_package(p) || p.cuda.empty()) continue;
        if (p.name.starts_with("cuda-") || p.name.starts_with("libcublas") ||
            p.name.starts_with("libcudart")) {
            if (auto v = rules::Version::parse(p.cuda)) return Target{*v, "apt " + p.word};
        }
    }
    return std::nullopt;
}

// The CUDA majors cuDNN `major` (or the exact release) was published for; empty: unknown.
std::set<int> published_cuda_majors(const dockerfile::Package& p, int major,
                                    const rules::Database& db) {
    std::set<int> majors;
    const std::string plain = p.version.substr(0, p.version.find_first_of("-+="));
    if (auto v = rules::Version::parse(plain); v && v->size() >= 2) {
        if (const auto* release = db.cudnn_release(*v)) {
            for (const auto& b : release->builds) majors.insert(b.cuda_major);
            return majors;
        }
    }
    for (const auto& release : db.cudnn_releases()) {
        if (release.version.major() != major) continue;
        for (const auto& b : release.builds) majors.insert(b.cuda_major);
    }
    return majors;
}

// The CUDA major apt takes for a cuDNN package named without a version on an nvidia/cuda image
// without cuDNN: NVIDIA's repository may carry every CUDA build of a release line under one name
// (libcudnn8 on Ubuntu 20.04/22.04), and apt installs the highest version. Which build that is,
// per package and distro, is a rules fact (cudnn.json apt_newest). nullptr: not that case, or
// the rules do not say.
const rules::CudnnAptNewest* unpinned_resolves_to(const dockerfile::Package& p,
                                                  const dockerfile::BaseFacts& base,
                                                  const rules::Database& db) {
    if (p.manager != Manager::apt || !p.version.empty()) return nullptr;
    if (base.kind != dockerfile::BaseKind::nvidia_cuda || base.cudnn_major != 0) return nullptr;
    return db.cudnn_apt_newest(p.name, base.distro);
}

std::vector<report::Finding> run(const dockerfile::Facts& facts, const rules::Database& db) {
    std::vector<report::Finding> out;
    std::set<std::pair<std::size_t, int>>
        reported;  // libcudnn9-cuda-12 and -dev-cuda-12: one per command
    for (const auto& stage : facts.stages) {
        for (const auto& p : stage.packages) {
            if (p.inherited || p.manager == Manager::pip || !lint::is_cudnn_package(p)) continue;
            if (reported.count({stage.stage, p.line})) continue;
            auto target = target_cuda(stage, db, p.manager);
            auto major = lint::cudnn_major(p);
            if (!target || !major) continue;
            std::string built_for;
            std::string evidence;
            if (auto cuda = rules::Version::parse(p.cuda)) {
                if (cuda->major() == target->cuda.major()) continue;
                built_for = "CUDA " + std::to_string(cuda->major());
                evidence = p.word + ": built for CUDA " + p.cuda + " (" + p.cuda_evidence + ")";
            } else if (const auto* newest = unpinned_resolves_to(p, stage.base, db)) {
                if (newest->cuda_major == target->cuda.major()) continue;
                built_for = "CUDA " + std::to_string(newest->cuda_major) + " (what apt picks)";
                evidence = p.word + " without a version: apt takes the highest in NVIDIA's " +
                           stage.base.distro + " repository, " + newest->version +
                           ", built for CUDA " + std::to_string(newest->cuda_major) +
                           " (rules: cuDNN apt_newest)";
            } else {
                const auto majors = published_cuda_majors(p, *major, db);
                if (majors.empty() || majors.count(target->cuda.major())) continue;
                std::vector<std::string> listed;
                for (int m : majors) listed.push_back(std::to_string(m));
                built_for = "CUDA " + lint::join(listed, "/") + " only";
                evidence = "rules: cuDNN " +
                           (p.version.empty() ? std::to_string(*major) : p.version) +
                           " was published for CUDA " + lint::join(listed, ", ");
            }
            reported.insert({stage.stage, p.line});
            auto f = lint::finding(facts, "CUVL13", p.line, p.end_line);
            f.severity = report::Severity::error;
            f.message = p.word + " is cuDNN " + std::to_string(*major) + " for " + built_for +
                        ", but " + target->source + " has CUDA " +
                        std::to_string(target->cuda.major()) +
                        ": it needs the other major's libcublas/libcudart, so cuDNN fails to load "
                        "or the install fails.";
            f.evidence.push_back(evidence);
            f.evidence.push_back(target->source + ": CUDA " + target->cuda.str());
            const std::string want = std::to_string(target->cuda.major());
            f.fix = p.manager == Manager::apt
                        ? "Install the cuDNN package for CUDA " + want + " (libcudnn" +
                              std::to_string(*major) + "-cuda-" + want +
                              " from cuDNN 9 on), or use a base image of the CUDA it was built for."
                        : "Pin a cudnn build for CUDA " + want + " (or let cuda-version=" + want +
                              " pick it), or change cudatoolkit/cuda-version to the cuDNN's CUDA.";
            out.push_back(std::move(f));
        }
    }
    return out;
}

CheckInfo info() {
    CheckInfo i;
    i.id = "CUVL13";
    i.name = "cudnn-cuda-major";
    i.severity = report::Severity::error;
    return i;
}

}  // namespace cuvl13

extern const LintCheck cuvl13_cudnn_cuda_major;
const LintCheck cuvl13_cudnn_cuda_major{cuvl13::info(), &cuvl13::run};

}  // namespace cuvet::checks
