// CUVL04: cuDNN from apt with neither a version pin nor an apt-mark hold.
#include <algorithm>
#include <map>

#include "checks/lint/lint_support.hpp"
#include "cuvet/checks/registry.hpp"

namespace cuvet::checks {
namespace cuvl04 {

std::vector<report::Finding> run(const dockerfile::Facts& facts, const rules::Database&) {
    // One finding per install command: libcudnn9-cuda-12 and its -dev package are one
    // decision to pin, not two.
    std::map<std::pair<std::size_t, int>, std::vector<const dockerfile::Package*>> groups;
    for (const auto& stage : facts.stages) {
        for (const auto& p : stage.packages) {
            if (p.inherited || p.manager != dockerfile::Manager::apt || p.pinned) continue;
            if (!lint::is_cudnn_package(p)) continue;
            const bool held =
                std::any_of(stage.holds.begin(), stage.holds.end(),
                            [&](const dockerfile::Hold& h) { return h.package == p.name; });
            if (!held) groups[{stage.stage, p.line}].push_back(&p);
        }
    }
    std::vector<report::Finding> out;
    for (const auto& [key, packages] : groups) {
        const dockerfile::Package& p = *packages.front();
        std::vector<std::string> words, names;
        for (const auto* q : packages) {
            if (std::find(words.begin(), words.end(), q->word) != words.end()) continue;
            words.push_back(q->word);
            names.push_back(q->name);
        }
        auto f = lint::finding(facts, "CUVL04", p.line, p.end_line);
        f.severity = report::Severity::warning;
        f.message = "apt installs " + lint::join(words) +
                    " with no version pin and no apt-mark hold: each rebuild takes the newest "
                    "cuDNN in NVIDIA's repository, which need not match the cuDNN your framework "
                    "was built with.";
        f.evidence.push_back("unpinned: " + lint::join(words, ", "));
        std::vector<std::string> pins;
        for (const auto& name : names) pins.push_back(name + "=<version>");
        f.fix = "Pin " + lint::join(pins) +
                " (e.g. the base image's NV_CUDNN_VERSION) and `apt-mark hold " +
                lint::join(names) + "`.";
        out.push_back(std::move(f));
    }
    return out;
}

CheckInfo info() {
    CheckInfo i;
    i.id = "CUVL04";
    i.name = "apt-cudnn-unpinned";
    i.severity = report::Severity::warning;
    return i;
}

}  // namespace cuvl04

extern const LintCheck cuvl04_apt_cudnn_unpinned;
const LintCheck cuvl04_apt_cudnn_unpinned{cuvl04::info(), &cuvl04::run};

}  // namespace cuvet::checks
