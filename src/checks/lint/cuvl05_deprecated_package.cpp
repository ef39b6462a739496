// CUVL05: packages that are deprecated or were removed.
#include <algorithm>
#include <optional>

#include "checks/lint/lint_support.hpp"
#include "cuvet/checks/registry.hpp"

namespace cuvet::checks {
namespace cuvl05 {

// The release of a pin, before a local (+…) or pre-release (2.0.0b0, 2.12.0rc1) suffix: a
// pinned beta is still a pin.
std::optional<rules::Version> pinned_release(const dockerfile::Package& p) {
    const std::string text = p.version.substr(0, p.version.find('+'));
    return rules::Version::parse(text.substr(0, text.find_first_not_of("0123456789.")));
}

// A name the framework's GPU build left (tensorflow-gpu, for tensorflow from 2.1): before
// that release the name *was* the GPU build, and replacing it would drop the GPU.
std::optional<report::Finding> retired_name(const dockerfile::Facts& facts,
                                            const dockerfile::Package& p,
                                            const rules::WheelPolicy& policy,
                                            const rules::Database& db) {
    const auto version = pinned_release(p);
    if (version && *version < *policy.retired_since) return std::nullopt;
    const std::string since = policy.retired_since->str();
    const std::string& successor = policy.retired_for;
    auto f = lint::finding(facts, "CUVL05", p.line, p.end_line);
    f.severity = report::Severity::warning;
    f.message = version
                    ? p.name + " " + version->str() + " is a retired name: since " + since +
                          " the " + successor + " package is the GPU build."
                    : "unpinned " + p.name + " takes its last release, a retired name: since " +
                          since + " the GPU build is the " + successor + " package, and the last " +
                          p.name + " releases only fail the install or suit older Pythons.";
    f.evidence.push_back(p.name + " " + (version ? version->str() : std::string("unpinned")) +
                         "; " + successor + " " + since + " and later is the GPU build");
    f.fix = "Install " + successor +
            (version ? "==" + version->str() : std::string("==<version>")) + " instead.";
    if (const auto bundled = db.framework_catalog().wheel(successor);
        bundled && !bundled->policy->bundled_with_extras.empty())
        f.fix = "Install " + successor +
                (version ? "==" + version->str() : std::string("==<version>")) +
                " (system CUDA) or " + successor + "[" +
                bundled->policy->bundled_with_extras.front() + "] (bundled CUDA).";
    return f;
}

// A name on PyPI that only fails the install ("pytorch").
report::Finding placeholder(const dockerfile::Facts& facts, const dockerfile::Package& p,
                            const rules::WheelMatch& match) {
    auto f = lint::finding(facts, "CUVL05", p.line, p.end_line);
    f.severity = report::Severity::error;
    f.message = "pip installs " + p.word + ": on PyPI '" + p.name +
                "' is a placeholder that fails the build ('" + match.policy->placeholder_error +
                "').";
    const std::string& real = match.spelling->pattern;
    f.fix = "Install " + real +
            (p.version.empty() ? std::string() : " (" + real + "==" + p.version + ")") +
            " from the CUDA index that matches the base image.";
    return f;
}

// Packages that install the same module (onnxruntime, onnxruntime-gpu): the later files win.
std::optional<report::Finding> exclusive_packages(const dockerfile::Facts& facts,
                                                  const dockerfile::StageFacts& stage,
                                                  const rules::FrameworkRecord& record) {
    std::vector<const dockerfile::Package*> found;
    for (const auto& name : record.exclusive_pip) {
        for (const auto& p : stage.packages) {
            if (p.manager == dockerfile::Manager::pip && p.name == name) {
                found.push_back(&p);
                break;
            }
        }
    }
    if (found.size() < 2) return std::nullopt;
    if (std::all_of(found.begin(), found.end(), [](const auto* p) { return p->inherited; }))
        return std::nullopt;
    const auto* later = *std::max_element(
        found.begin(), found.end(), [](const auto* a, const auto* b) { return a->line < b->line; });
    std::vector<std::string> names, words;
    for (const auto* p : found) {
        names.push_back(p->name);
        words.push_back(p->word + " (line " + std::to_string(p->line) + ")");
    }
    auto f = lint::finding(facts, "CUVL05", later->line, later->end_line);
    f.severity = report::Severity::warning;
    f.message = lint::join(names, " and ") + " are both installed: they ship the same " +
                record.exclusive_module + " module, and with the CPU package's files on top " +
                record.exclusive_loses + " is missing.";
    f.evidence.push_back(lint::join(words, ", "));
    f.fix =
        "Install only the GPU package (uninstall the others first if a dependency pulls "
        "them in).";
    return f;
}

std::vector<report::Finding> run(const dockerfile::Facts& facts, const rules::Database& db) {
    std::vector<report::Finding> out;
    const auto& catalog = db.framework_catalog();
    for (const auto& stage : facts.stages) {
        for (const auto& p : stage.packages) {
            if (p.manager != dockerfile::Manager::pip || p.inherited) continue;
            const auto match = catalog.wheel(p.name);
            if (!match) continue;
            if (match->kind == rules::WheelMatch::Kind::placeholder) {
                out.push_back(placeholder(facts, p, *match));
            } else if (match->kind == rules::WheelMatch::Kind::spelling &&
                       !match->policy->retired_for.empty()) {
                if (auto f = retired_name(facts, p, *match->policy, db))
                    out.push_back(std::move(*f));
            }
        }
        for (const auto& record : catalog.records()) {
            if (auto f = exclusive_packages(facts, stage, record)) out.push_back(std::move(*f));
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
