#pragma once
// Metadata every check carries; `cuvet rules` and `cuvet explain ID` are
// generated from it, so docs never drift from code (docs/architecture.md; hadolint's model).
#include <string>

#include "cuvet/report/finding.hpp"

namespace cuvet::checks {

struct CheckInfo {
    std::string id;  // stable: "CUV001" (validate), "CUVL01" (lint)
    report::Severity severity = report::Severity::warning;
    std::string title;      // one line
    std::string rationale;  // why it matters, which production error it prevents
    std::string failing_example;
    std::string passing_example;
    std::string fix;
    std::string name;  // short kebab-case name, "unresolved-soname" (SARIF rule name)
};

}  // namespace cuvet::checks
