#include "cuvet/report/fail_on.hpp"

#include <algorithm>

namespace cuvet::report {

std::optional<FailOn> parse_fail_on(std::string_view text) {
    if (text == "error") return FailOn::error;
    if (text == "warning") return FailOn::warning;
    if (text == "info") return FailOn::info;
    if (text == "never") return FailOn::never;
    return std::nullopt;
}

std::string_view to_string(FailOn threshold) {
    switch (threshold) {
        case FailOn::error:
            return "error";
        case FailOn::warning:
            return "warning";
        case FailOn::info:
            return "info";
        case FailOn::never:
            return "never";
    }
    return "error";
}

bool fails(const std::vector<Finding>& findings, FailOn threshold) {
    if (threshold == FailOn::never) return false;
    Severity minimum = threshold == FailOn::error     ? Severity::error
                       : threshold == FailOn::warning ? Severity::warning
                                                      : Severity::info;
    return std::any_of(findings.begin(), findings.end(), [&](const Finding& finding) {
        return static_cast<int>(finding.severity) >= static_cast<int>(minimum);
    });
}

int exit_code(const std::vector<Finding>& findings, FailOn threshold) {
    return fails(findings, threshold) ? 1 : 0;
}

}  // namespace cuvet::report
