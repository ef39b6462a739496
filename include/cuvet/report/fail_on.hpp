#pragma once
// --fail-on: which findings make the command exit 1 (0 otherwise).
#include <optional>
#include <string_view>
#include <vector>

#include "cuvet/report/finding.hpp"

namespace cuvet::report {

enum class FailOn { error, warning, info, never };

std::optional<FailOn> parse_fail_on(std::string_view text);  // "error|warning|info|never"
std::string_view to_string(FailOn threshold);

// True when any finding is at or above the threshold (never: always false).
bool fails(const std::vector<Finding>& findings, FailOn threshold);
// 1 when fails(), else 0: the exit code the findings alone call for.
int exit_code(const std::vector<Finding>& findings, FailOn threshold);

}  // namespace cuvet::report
