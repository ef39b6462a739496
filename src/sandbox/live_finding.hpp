#pragma once
// A finding of a live check (CUVGxx) with the id, severity and title its CheckInfo registers
// (src/checks/live), as the registry stamps the static checks' findings: one source for the
// reports, `cuvet explain` and the docs (private to src/sandbox).
#include <string>
#include <string_view>

#include "cuvet/report/finding.hpp"

namespace cuvet::sandbox {

report::Finding live_finding(std::string_view id, std::string message, std::string fix);

}  // namespace cuvet::sandbox
