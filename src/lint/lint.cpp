#include "cuvet/lint/lint.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <tuple>

#include "cuvet/checks/registry.hpp"
#include "cuvet/dockerfile/facts.hpp"
#include "cuvet/dockerfile/stages.hpp"

namespace cuvet::lint {
namespace {

std::string upper(std::string text) {
    for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return text;
}

// "cuvet ignore=CUVL01, cuvl03" → {CUVL01, CUVL03}; `global` says which form.
bool read_pragma(std::string_view comment, bool& global, std::set<std::string>& ids) {
    auto skip_space = [&] {
        while (!comment.empty() && (comment.front() == ' ' || comment.front() == '\t'))
            comment.remove_prefix(1);
    };
    skip_space();
    if (!comment.starts_with("cuvet")) return false;
    comment.remove_prefix(5);
    skip_space();
    global = comment.starts_with("global");
    if (global) {
        comment.remove_prefix(6);
        skip_space();
    }
    if (!comment.starts_with("ignore")) return false;
    comment.remove_prefix(6);
    skip_space();
    if (comment.empty() || comment.front() != '=') return false;
    comment.remove_prefix(1);
    std::string id;
    for (char c : comment) {
        if (c == ',' || c == ' ' || c == '\t') {
            if (!id.empty()) ids.insert(upper(id));
            id.clear();
        } else {
            id += c;
        }
    }
    if (!id.empty()) ids.insert(upper(id));
    return !ids.empty();
}

bool within(const report::Finding& finding, int start, int end) {
    for (const auto& location : finding.locations) {
        if (location.line >= start && location.line <= end) return true;
    }
    return false;
}

// The same install in two branches of a `case` or `if` yields the same
// finding twice; one is enough.
void drop_duplicates(std::vector<report::Finding>& findings) {
    std::set<std::tuple<std::string, int, std::string>> seen;
    std::erase_if(findings, [&](const report::Finding& f) {
        const int line = f.locations.empty() ? 0 : f.locations.front().line;
        return !seen.insert({f.id, line, f.message}).second;
    });
}

}  // namespace

void apply_inline_ignores(const dockerfile::Dockerfile& dockerfile,
                          std::vector<report::Finding>& findings) {
    std::set<std::string> global_ids;
    for (const auto& comment : dockerfile.comments) {
        bool global = false;
        std::set<std::string> ids;
        if (read_pragma(comment.text, global, ids) && global)
            global_ids.insert(ids.begin(), ids.end());
    }
    struct Span {
        int start, end;
        std::set<std::string> ids;
    };
    std::vector<Span> spans;
    for (const auto& instruction : dockerfile.instructions) {
        Span span{instruction.start_line, instruction.end_line, {}};
        for (const auto& comment : instruction.comments) {
            bool global = false;
            std::set<std::string> ids;
            if (read_pragma(comment, global, ids) && !global)
                span.ids.insert(ids.begin(), ids.end());
        }
        if (!span.ids.empty()) spans.push_back(std::move(span));
    }
    std::erase_if(findings, [&](const report::Finding& f) {
        const std::string id = upper(f.id);
        if (global_ids.count(id)) return true;
        return std::any_of(spans.begin(), spans.end(), [&](const Span& s) {
            return s.ids.count(id) && within(f, s.start, s.end);
        });
    });
}

Result lint_text(std::string_view text, const std::string& name, const rules::Database& db,
                 const Options& options) {
    dockerfile::Dockerfile parsed = dockerfile::parse(text, name);
    dockerfile::AnalyzeOptions analyze_options;
    analyze_options.build_args = options.build_args;
    analyze_options.target = options.target;
    dockerfile::Build build = dockerfile::analyze(parsed, analyze_options);
    Result result;
    result.warnings = parsed.warnings;
    dockerfile::Facts facts = dockerfile::extract_facts(std::move(parsed), std::move(build));
    facts.fleet_drivers = options.drivers;
    result.findings = checks::run_lint_checks(facts, db);
    apply_inline_ignores(facts.dockerfile, result.findings);
    drop_duplicates(result.findings);
    return result;
}

}  // namespace cuvet::lint
