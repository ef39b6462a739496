// CUV015 framework-gpu-libraries
#include "check_util.hpp"
#include "checks.hpp"
#include "cuvet/frameworks/framework.hpp"

namespace cuvet::checks {

namespace cuv015 {

// Each framework opens its GPU libraries its own way and fails in its own words: the
// framework judges (Framework::gpu_library_findings, src/frameworks/<name>_findings.cpp).
std::vector<report::Finding> run(const Stack& stack, const rules::Database& db) {
    std::vector<report::Finding> out;
    for (const auto& fw : stack.frameworks) {
        const auto* framework = fw.model;
        if (framework == nullptr || framework->gpu_library_findings == nullptr) continue;
        util::ImportedBy imported_by{out, fw};
        for (auto& f : framework->gpu_library_findings(stack, db, fw)) out.push_back(std::move(f));
    }
    return out;
}

}  // namespace cuv015

const ValidateCheck cuv015_framework_gpu_libraries{
    CheckInfo{
        .id = "CUV015",
        .severity = report::Severity::error,
        .name = "framework-gpu-libraries",
    },
    &cuv015::run,
};

}  // namespace cuvet::checks
