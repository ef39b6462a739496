// CUVL07: the shipped (final) stage is built on a -devel image.
#include "checks/lint/lint_support.hpp"
#include "cuvet/checks/registry.hpp"

namespace cuvet::checks {
namespace cuvl07 {

std::vector<report::Finding> run(const dockerfile::Facts& facts, const rules::Database& db) {
    std::vector<report::Finding> out;
    const auto& stage = facts.final_stage();
    if (stage.base.flavor != "devel") return out;
    // Compiling CUDA code (extensions, nvcc, cmake, a JIT that needs the toolkit)
    // is what devel images are for.
    if (lint::stage_builds_code(facts, stage.stage, db)) return out;
    const int line = facts.build.stages.at(stage.stage).from_line;
    auto f = lint::finding(facts, "CUVL07", line, line);
    f.severity = report::Severity::warning;
    f.message = "the shipped stage is built on " + stage.base.reference +
                " but compiles nothing: nvcc, headers and static libraries add gigabytes the "
                "-runtime image does not carry.";
    if (stage.parent)
        f.evidence.push_back("through stage '" + facts.build.stages.at(*stage.parent).name + "'");
    std::string runtime = stage.base.reference;
    if (auto pos = runtime.rfind("-devel"); pos != std::string::npos)
        runtime.replace(pos, 6, "-runtime");
    f.fix = "Build FROM " + runtime +
            " instead, or compile in a devel stage and copy the results into it.";
    out.push_back(std::move(f));
    return out;
}

CheckInfo info() {
    CheckInfo i;
    i.id = "CUVL07";
    i.name = "devel-final-stage";
    i.severity = report::Severity::warning;
    return i;
}

}  // namespace cuvl07

extern const LintCheck cuvl07_devel_final_stage;
const LintCheck cuvl07_devel_final_stage{cuvl07::info(), &cuvl07::run};

}  // namespace cuvet::checks
