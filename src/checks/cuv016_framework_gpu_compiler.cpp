// CUV016 framework-gpu-compiler
#include "check_util.hpp"
#include "checks.hpp"
#include "cuvet/frameworks/framework.hpp"

namespace cuvet::checks {

namespace cuv016 {

// What each framework compiles with, and how it fails without it, is its own: the framework
// judges (Framework::gpu_compiler_findings, src/frameworks/<name>_findings.cpp).
std::vector<report::Finding> run(const Stack& stack, const rules::Database& db) {
    std::vector<report::Finding> out;
    for (const auto& fw : stack.frameworks) {
        const auto* framework = fw.model;
        if (framework == nullptr || framework->gpu_compiler_findings == nullptr) continue;
        util::ImportedBy imported_by{out, fw};
        for (auto& f : framework->gpu_compiler_findings(stack, db, fw)) out.push_back(std::move(f));
    }
    return out;
}

}  // namespace cuv016

const ValidateCheck cuv016_framework_gpu_compiler{
    CheckInfo{
        .id = "CUV016",
        .severity = report::Severity::error,
        .name = "framework-gpu-compiler",
    },
    &cuv016::run,
};

}  // namespace cuvet::checks
