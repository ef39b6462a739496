// CUVL03: a framework or cuDNN installed through pip/conda without an exact version.
#include <algorithm>
#include <map>
#include <tuple>

#include "checks/lint/lint_support.hpp"
#include "cuvet/checks/registry.hpp"

namespace cuvet::checks {
namespace {

std::vector<report::Finding> run(const dockerfile::Facts& facts, const rules::Database&) {
    // One finding per install command: `pip install torch torchvision torchaudio`
    // is one decision to fix, not three.
    struct Group {
        const dockerfile::Package* first = nullptr;
        std::vector<std::string> words;
        std::vector<std::string> pins;
    };
    std::map<std::tuple<std::size_t, int, int>, Group> groups;
    for (const auto& stage : facts.stages) {
        for (const auto& p : stage.packages) {
            if (p.inherited || p.pinned || p.manager == dockerfile::Manager::apt) continue;
            if (!lint::is_framework(p) && !lint::is_cudnn_package(p)) continue;
            Group& g = groups[{stage.stage, p.line, static_cast<int>(p.manager)}];
            if (!g.first) g.first = &p;
            if (std::find(g.words.begin(), g.words.end(), p.word) != g.words.end()) continue;
            g.words.push_back(p.word);
            g.pins.push_back(p.manager == dockerfile::Manager::pip
                                 ? p.name + (p.extras.empty() ? "" : "[" + p.extras + "]") + "==<version>"
                                 : p.name + "==<version>");
        }
    }
    std::vector<report::Finding> out;
    for (const auto& [key, g] : groups) {
        const dockerfile::Package& p = *g.first;
        auto join = [](const std::vector<std::string>& items) {
            std::string text;
            for (const auto& item : items) text += (text.empty() ? "" : " ") + item;
            return text;
        };
        auto f = lint::finding(facts, "CUVL03", p.line, p.end_line);
        f.severity = report::Severity::warning;
        f.message = std::string(dockerfile::to_string(p.manager)) + " installs " + join(g.words) +
                    " without an exact version: every rebuild takes whatever release is newest "
                    "then, and with it another CUDA/cuDNN build (torch 2.3 → 2.4 moved from "
                    "cuDNN 8 to cuDNN 9), so an unchanged Dockerfile can produce an image that "
                    "no longer matches its base or the fleet's driver.";
        f.fix = "Pin " + std::string(g.words.size() > 1 ? "them" : "it") + ": " + join(g.pins) +
                (p.manager == dockerfile::Manager::pip ? " (or install from a constraints/lock file)."
                                                       : " (or use an explicit environment file).");
        out.push_back(std::move(f));
    }
    return out;
}

CheckInfo info() {
    CheckInfo i;
    i.id = "CUVL03";
    i.name = "unpinned-framework";
    i.severity = report::Severity::warning;
    i.title = "Framework or cuDNN installed without an exact version";
    i.rationale =
        "A framework release fixes the CUDA and cuDNN it was built with. Without a pin, a rebuild "
        "silently changes the whole GPU stack, and the image stops matching its base image or the "
        "drivers it was tested on.";
    i.failing_example = "FROM python:3.11-slim\nRUN pip install torch torchvision";
    i.passing_example = "FROM python:3.11-slim\nRUN pip install torch==2.4.1 torchvision==0.19.1";
    i.fix = "Pin the exact version (==x.y.z), or install from a lock/constraints file.";
    return i;
}

}  // namespace

extern const LintCheck cuvl03_unpinned_framework;
const LintCheck cuvl03_unpinned_framework{info(), &run};

}  // namespace cuvet::checks
