#pragma once
// Every check cuvet knows, validate (CUV0xx, image), lint (CUVLxx, Dockerfile) and
// live (CUVGxx, the GPU probe), with the metadata `cuvet rules` and `cuvet explain ID` print.
//
// Adding a check: a new file src/checks/<id>_<short_name>.cpp that defines
//     const ValidateCheck cuv015_whatever{ {CheckInfo…}, &run };   (or LintCheck)
// and one line in src/checks/validate_checks.inc (or lint_checks.inc).
// A check whose run is nullptr is documented but not implemented yet. A live check
// (src/checks/live/cuvgNN_*.cpp, live_checks.inc) has no run here: the live check in
// src/sandbox reports it, with the id, severity and title registered here.
#include <string_view>
#include <vector>

#include "cuvet/checks/check_info.hpp"
#include "cuvet/report/finding.hpp"
#include "cuvet/report/renderer.hpp"

namespace cuvet::rules {
class Database;
}
namespace cuvet::dockerfile {
struct Facts;
}

namespace cuvet::stack {
struct Stack;  // cuvet/stack/stack.hpp
}

namespace cuvet::checks {

using ValidateRun = std::vector<report::Finding> (*)(const stack::Stack&, const rules::Database&);
using LintRun = std::vector<report::Finding> (*)(const dockerfile::Facts&, const rules::Database&);

struct ValidateCheck {
    CheckInfo info;
    ValidateRun run = nullptr;
};

struct LintCheck {
    CheckInfo info;
    LintRun run = nullptr;
};

// Findings of the live check (`cuvet probe`, `cuvet validate --probe`), made in src/sandbox.
struct LiveCheck {
    CheckInfo info;
};

enum class CheckKind { validate, lint, live };
// "validate", "lint", "live"
const char* to_string(CheckKind kind);

struct CheckEntry {
    const CheckInfo* info = nullptr;
    CheckKind kind = CheckKind::validate;
    bool implemented = false;
};

const std::vector<const ValidateCheck*>& validate_checks();
const std::vector<const LintCheck*>& lint_checks();
const std::vector<const LiveCheck*>& live_checks();
// Every list, ordered by id.
std::vector<CheckEntry> all_checks();
// Case-insensitive: "cuv001" finds CUV001. nullptr when unknown.
const CheckEntry* find_check(std::string_view id);

// The registry as reports describe it (SARIF rules, JUnit cases), one kind at a time.
std::vector<report::RuleInfo> report_rules(CheckKind kind);

// Runs every implemented validate check. Each finding gets its check's id,
// severity and title where the check left them empty.

std::vector<report::Finding> run_validate_checks(const stack::Stack& stack,
                                                 const rules::Database& db);
std::vector<report::Finding> run_lint_checks(const dockerfile::Facts& facts,
                                             const rules::Database& db);

}  // namespace cuvet::checks
