#pragma once
// Metadata every check carries; `cuvet rules`, `cuvet explain ID`, SARIF rules and the
// findings' titles and fixes read it. Id, name and severity are code; the words are the
// check's page, docs/checks/<ID>.md, compiled in, so docs and binary never drift.
#include <string>

#include "cuvet/report/finding.hpp"

namespace cuvet::checks {

struct CheckInfo {
    std::string id;  // stable: "CUV001" (validate), "CUVL01" (lint)
    report::Severity severity = report::Severity::warning;
    // The documentation, written once in the check's page docs/checks/<ID>.md and filled in
    // by the registry (checks::all_checks(), find_check()), never in the check's code.
    std::string title{};      // one line
    std::string rationale{};  // why it matters, which production error it prevents
    std::string failing_example{};
    std::string passing_example{};
    std::string fix{};
    std::string name;  // short kebab-case name, "unresolved-soname" (SARIF rule name)
};

}  // namespace cuvet::checks
