#pragma once
// Private to src/checks: declares every check object listed in the .inc files.
#include "cuvet/checks/registry.hpp"
#include "cuvet/rules/database.hpp"
#include "stack_model.hpp"

namespace cuvet::checks {

#define CUVET_VALIDATE_CHECK(var) extern const ValidateCheck var;
#include "validate_checks.inc"
#undef CUVET_VALIDATE_CHECK

#define CUVET_LINT_CHECK(var) extern const LintCheck var;
#include "lint_checks.inc"
#undef CUVET_LINT_CHECK

#define CUVET_LIVE_CHECK(var) extern const LiveCheck var;
#include "live_checks.inc"
#undef CUVET_LIVE_CHECK

}  // namespace cuvet::checks
