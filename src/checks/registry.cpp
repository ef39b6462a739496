#include "cuvet/checks/registry.hpp"

#include <algorithm>
#include <cctype>
#include <deque>

#include "check_page.hpp"
#include "checks.hpp"

namespace cuvet::checks {

namespace {

bool same_id(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::toupper(static_cast<unsigned char>(x)) ==
                      std::toupper(static_cast<unsigned char>(y));
           });
}

// Each check's CheckInfo with its documentation read from its page (docs/checks/<ID>.md,
// compiled in): the code holds id, name and severity, the page the words.
const CheckInfo* documented(const CheckInfo& info) {
    static std::deque<CheckInfo> infos;  // stable addresses; filled once, under entries()
    infos.push_back(info);
    read_check_page(infos.back());
    return &infos.back();
}

const std::vector<CheckEntry>& entries() {
    static const std::vector<CheckEntry> all = [] {
        std::vector<CheckEntry> out;
        for (const ValidateCheck* check : validate_checks()) {
            out.push_back({documented(check->info), CheckKind::validate, check->run != nullptr});
        }
        for (const LintCheck* check : lint_checks()) {
            out.push_back({documented(check->info), CheckKind::lint, check->run != nullptr});
        }
        for (const LiveCheck* check : live_checks())
            out.push_back({documented(check->info), CheckKind::live, true});
        std::sort(out.begin(), out.end(),
                  [](const CheckEntry& a, const CheckEntry& b) { return a.info->id < b.info->id; });
        return out;
    }();
    return all;
}

// Checks fill message, locations, evidence and fix; the registry stamps the rest, from the
// documented info.
void stamp(std::vector<report::Finding>& findings, std::size_t from, const CheckInfo& raw) {
    // Most checks find nothing: look the documented info up only when there is work.
    if (from == findings.size()) return;
    const CheckInfo& info = *find_check(raw.id)->info;
    for (std::size_t i = from; i < findings.size(); ++i) {
        report::Finding& finding = findings[i];
        if (finding.id.empty()) finding.id = info.id;
        if (finding.title.empty()) finding.title = info.title;
        if (finding.fix.empty()) finding.fix = info.fix;
    }
}

}  // namespace

const std::vector<const ValidateCheck*>& validate_checks() {
    static const std::vector<const ValidateCheck*> list = {
#define CUVET_VALIDATE_CHECK(var) &var,
#include "validate_checks.inc"
#undef CUVET_VALIDATE_CHECK
    };
    return list;
}

const std::vector<const LintCheck*>& lint_checks() {
    static const std::vector<const LintCheck*> list = {
#define CUVET_LINT_CHECK(var) &var,
#include "lint_checks.inc"
#undef CUVET_LINT_CHECK
    };
    return list;
}

const std::vector<const LiveCheck*>& live_checks() {
    static const std::vector<const LiveCheck*> list = {
#define CUVET_LIVE_CHECK(var) &var,
#include "live_checks.inc"
#undef CUVET_LIVE_CHECK
    };
    return list;
}

const char* to_string(CheckKind kind) {
    switch (kind) {
        case CheckKind::validate:
            return "validate";
        case CheckKind::lint:
            return "lint";
        case CheckKind::live:
            return "live";
    }
    return "";
}

std::vector<CheckEntry> all_checks() { return entries(); }

const CheckEntry* find_check(std::string_view id) {
    for (const CheckEntry& entry : entries()) {
        if (same_id(entry.info->id, id)) return &entry;
    }
    return nullptr;
}

std::vector<report::RuleInfo> report_rules(CheckKind kind) {
    std::vector<report::RuleInfo> out;
    for (const CheckEntry& entry : entries()) {
        if (entry.kind != kind) continue;
        const CheckInfo& info = *entry.info;
        // help_uri and help_markdown are filled by the CLI, which knows where the docs live.
        out.push_back(
            {info.id, info.name, info.title, info.severity, info.rationale, info.fix, {}, {}});
    }
    return out;
}

std::vector<report::Finding> run_validate_checks(const Stack& stack, const rules::Database& db) {
    std::vector<report::Finding> findings;
    for (const ValidateCheck* check : validate_checks()) {
        if (!check->run) continue;
        std::size_t before = findings.size();
        auto found = check->run(stack, db);
        for (auto& finding : found) {
            // A check reports at its own severity unless it deliberately chose another.
            if (finding.id.empty()) finding.severity = check->info.severity;
            findings.push_back(std::move(finding));
        }
        stamp(findings, before, check->info);
    }
    // Checks that judge a framework or a copy name files, not roots: say which root maps the first
    // such file.
    for (auto& finding : findings)
        for (const auto& location : finding.locations) {
            if (!finding.loaded_by.empty()) break;
            if (const auto* root = stack.root_of(location.file)) finding.loaded_by = *root;
        }
    return findings;
}

std::vector<report::Finding> run_lint_checks(const dockerfile::Facts& facts,
                                             const rules::Database& db) {
    std::vector<report::Finding> findings;
    for (const LintCheck* check : lint_checks()) {
        if (!check->run) continue;
        std::size_t before = findings.size();
        auto found = check->run(facts, db);
        for (auto& finding : found) {
            if (finding.id.empty()) finding.severity = check->info.severity;
            findings.push_back(std::move(finding));
        }
        stamp(findings, before, check->info);
    }
    return findings;
}

}  // namespace cuvet::checks
