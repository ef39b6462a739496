// CUVL05: packages that are deprecated or were removed.
#include "checks/lint/lint_support.hpp"
#include "cuvet/checks/registry.hpp"

namespace cuvet::checks {
namespace {

std::vector<report::Finding> run(const dockerfile::Facts& facts, const rules::Database&) {
    std::vector<report::Finding> out;
    for (const auto& stage : facts.stages) {
        for (const auto& p : stage.packages) {
            if (p.inherited || p.manager != dockerfile::Manager::pip) continue;
            if (p.name != "tensorflow-gpu") continue;
            auto f = lint::finding(facts, "CUVL05", p.line, p.end_line);
            f.severity = report::Severity::warning;
            f.message = "tensorflow-gpu is deprecated: since TensorFlow 2.1 the tensorflow package "
                        "itself runs on GPUs, the tensorflow-gpu name was retired at the end of "
                        "2022, and its later releases only fail the install telling you to use "
                        "tensorflow instead.";
            f.fix = "Install tensorflow (using the image's CUDA) or tensorflow[and-cuda] (bringing "
                    "its own CUDA libraries) at a pinned version.";
            out.push_back(std::move(f));
        }
    }
    return out;
}

CheckInfo info() {
    CheckInfo i;
    i.id = "CUVL05";
    i.name = "deprecated-package";
    i.severity = report::Severity::warning;
    i.title = "Deprecated GPU package";
    i.rationale = "tensorflow-gpu is no longer published; builds that use it are stuck on old "
                  "releases or fail to build.";
    i.failing_example = "FROM python:3.10\nRUN pip install tensorflow-gpu==2.10.0";
    i.passing_example = "FROM python:3.10\nRUN pip install tensorflow[and-cuda]==2.15.0";
    i.fix = "Use tensorflow or tensorflow[and-cuda].";
    return i;
}

}  // namespace

extern const LintCheck cuvl05_deprecated_package;
const LintCheck cuvl05_deprecated_package{info(), &run};

}  // namespace cuvet::checks
