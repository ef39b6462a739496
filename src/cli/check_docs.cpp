#include "check_docs.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "cuvet/core/error.hpp"
#include "exit_codes.hpp"

#ifndef CUVET_REPOSITORY_URL
#define CUVET_REPOSITORY_URL ""
#endif
#ifndef CUVET_DOCS_URL
#define CUVET_DOCS_URL ""
#endif

namespace cuvet::cli {
namespace {

std::string fenced(const std::string& text) {
    return "```\n" + text + (text.empty() || text.back() == '\n' ? "" : "\n") + "```\n";
}

std::string paragraph(const std::string& text) {
    return text + (text.empty() || text.back() == '\n' ? "" : "\n");
}

// The command that reports a check of this kind, as the pages name it.
std::string command_of(checks::CheckKind kind) {
    switch (kind) {
        case checks::CheckKind::validate:
            return "`cuvet validate`";
        case checks::CheckKind::lint:
            return "`cuvet lint`";
        case checks::CheckKind::live:
            return "`cuvet validate --probe`, `cuvet probe` (live check)";
    }
    return "";
}

}  // namespace

std::string check_markdown(const checks::CheckEntry& entry) {
    const checks::CheckInfo& info = *entry.info;
    std::string out = "# " + info.id + " " + info.name + "\n\n";
    out += "**" + info.title + "**\n\n";
    out += "Severity: " + std::string(report::to_string(info.severity)) +
           " · Command: " + command_of(entry.kind);
    if (!entry.implemented) out += " · documented, not implemented yet";
    out += "\n\n## Why\n\n" + paragraph(info.rationale);
    out += "\n## Fails\n\n" + fenced(info.failing_example);
    out += "\n## Passes\n\n" + fenced(info.passing_example);
    out += "\n## Fix\n\n" + paragraph(info.fix);
    out +=
        "\n---\nThis page is the check's documentation: cuvet compiles it in, and `cuvet "
        "explain " +
        info.id + "` prints the same. Silence it with `--ignore " + info.id + "` or `ignore: [" +
        info.id + "]` in `.cuvet.yaml`.\n";
    return out;
}

std::string checks_index_markdown() {
    std::string out =
        "# cuvet checks\n\nOne page per check. The pages are the checks' documentation: cuvet "
        "compiles them in (`cuvet explain ID` prints one), and `cuvet docs checks docs/checks` "
        "rewrites them in their canonical form, and this index from the checks' ids, names and "
        "severities (a test fails when they differ).\n\n"
        "| id | name | severity | command | title |\n|---|---|---|---|---|\n";
    for (const auto& entry : checks::all_checks()) {
        const auto& info = *entry.info;
        out += "| [" + info.id + "](" + info.id + ".md) | " + info.name + " | " +
               std::string(report::to_string(info.severity)) + " | " +
               checks::to_string(entry.kind) + " | " + info.title + " |\n";
    }
    return out;
}

std::string repository_url() { return CUVET_REPOSITORY_URL; }

std::string docs_url() {
    // The run-time setting wins: a binary built from a clone with no public
    // remote can still link a mirror's pages. Set but empty: no helpUri.
    const char* env = std::getenv("CUVET_DOCS_URL");
    std::string base = env != nullptr ? env : CUVET_DOCS_URL;
    while (!base.empty() && base.back() == '/') base.pop_back();
    if (!base.empty() && base.rfind("https://", 0) != 0 && base.rfind("http://", 0) != 0)
        fail_usage("CUVET_DOCS_URL: '" + base +
                   "' is not an http(s) URL (the directory holding the check pages ID.md)");
    return base;
}

std::string check_doc_url(const std::string& id) {
    const std::string base = docs_url();
    return base.empty() ? std::string() : base + "/" + id + ".md";
}

std::vector<report::RuleInfo> documented_rules(checks::CheckKind kind) {
    std::vector<report::RuleInfo> rules = checks::report_rules(kind);
    for (auto& rule : rules) {
        if (const checks::CheckEntry* entry = checks::find_check(rule.id))
            rule.help_markdown = check_markdown(*entry);
        rule.help_uri = check_doc_url(rule.id);
    }
    return rules;
}

void add_docs_command(CLI::App& app, Dispatch& dispatch) {
    auto dir = std::make_shared<std::string>();
    CLI::App* command = app.add_subcommand("docs", "rewrite documentation in its canonical form");
    command->group("");  // for maintainers: docs/checks is committed
    CLI::App* checks_command = command->add_subcommand(
        "checks", "write each check's page (as compiled in) and README.md into DIR");
    checks_command->add_option("DIR", *dir, "output directory (docs/checks)")->required();
    command->require_subcommand(1);
    checks_command->callback([dir, &dispatch] {
        dispatch.run = [dir] {
            namespace fs = std::filesystem;
            std::error_code ec;
            fs::create_directories(*dir, ec);
            if (ec) fail_io(*dir + ": cannot create: " + ec.message());
            auto write = [](const fs::path& path, const std::string& text) {
                std::ofstream out(path, std::ios::binary);
                if (!out || !(out << text).flush()) fail_io(path.string() + ": cannot write");
            };
            for (const auto& entry : checks::all_checks())
                write(fs::path(*dir) / (entry.info->id + ".md"), check_markdown(entry));
            write(fs::path(*dir) / "README.md", checks_index_markdown());
            return exit_ok;
        };
    });
}

}  // namespace cuvet::cli
