#pragma once
// What the per-check lint tests share: the built-in rules and the findings
// one check raises on a Dockerfile text.
#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

#include "cuvet/lint/lint.hpp"
#include "cuvet/rules/database.hpp"
#include "support/builtin_rules.hpp"

namespace cuvet::test {

// The findings of check `id` on `text`, linted as "Dockerfile".
inline std::vector<report::Finding> lint_ids(const std::string& text, const std::string& id) {
    auto result = lint::lint_text(text, "Dockerfile", db());
    std::vector<report::Finding> out;
    std::copy_if(result.findings.begin(), result.findings.end(), std::back_inserter(out),
                 [&](const report::Finding& f) { return f.id == id; });
    return out;
}

}  // namespace cuvet::test
