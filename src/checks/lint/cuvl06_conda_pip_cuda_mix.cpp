// CUVL06: conda and pip both install CUDA libraries into one stage.
#include "checks/lint/lint_support.hpp"
#include "cuvet/checks/registry.hpp"

namespace cuvet::checks {
namespace cuvl06 {

// CUDA's own conda packages, a framework's CUDA selector (rules/frameworks.json
// conda_cuda_selectors) and conda spellings that pull CUDA in (cuda_libraries "bundled").
bool conda_brings_cuda(const dockerfile::Package& p, const rules::Database& db) {
    if (p.manager != dockerfile::Manager::conda) return false;
    const std::string& n = p.name;
    if (!p.cuda.empty() || n == "cudnn" || n == "cudatoolkit" || n == "nccl" ||
        n.starts_with("cuda-"))
        return true;
    const auto& catalog = db.framework_catalog();
    const auto spelled = catalog.conda(n);
    return catalog.is_conda_cuda_selector(n) ||
           (spelled && spelled->spelling->cuda_libraries == "bundled");
}

std::vector<report::Finding> run(const dockerfile::Facts& facts, const rules::Database& db) {
    std::vector<report::Finding> out;
    for (const auto& stage : facts.stages) {
        const dockerfile::Package* conda = nullptr;
        const dockerfile::Package* pip = nullptr;
        for (const auto& p : stage.packages) {
            if (!conda && conda_brings_cuda(p, db)) conda = &p;
            if (!pip) {
                auto wheel = lint::wheel_stack(p, db);
                if (wheel && wheel->bundles_libraries && !wheel->cpu_only) pip = &p;
            }
        }
        if (!conda || !pip || (conda->inherited && pip->inherited)) continue;
        const dockerfile::Package& later = conda->line > pip->line ? *conda : *pip;
        auto f = lint::finding(facts, "CUVL06", later.line, later.end_line);
        f.severity = report::Severity::warning;
        f.message = "conda installs " + conda->word + " (line " + std::to_string(conda->line) +
                    ") and pip installs " + pip->word + " (line " + std::to_string(pip->line) +
                    "): both bring CUDA/cuDNN libraries into one environment. Which copy a process "
                    "loads then depends on import order and on conda's lib directory being on the "
                    "search path, so the same image can run against either cuDNN.";
        f.fix =
            "Install the GPU stack with one package manager: either all from conda (the "
            "framework with its CUDA selector or cuda-version) or all from pip (wheels built for "
            "one CUDA, from that CUDA's index).";
        out.push_back(std::move(f));
    }
    return out;
}

CheckInfo info() {
    CheckInfo i;
    i.id = "CUVL06";
    i.name = "conda-pip-cuda-mix";
    i.severity = report::Severity::warning;
    return i;
}

}  // namespace cuvl06

extern const LintCheck cuvl06_conda_pip_cuda_mix;
const LintCheck cuvl06_conda_pip_cuda_mix{cuvl06::info(), &cuvl06::run};

}  // namespace cuvet::checks
