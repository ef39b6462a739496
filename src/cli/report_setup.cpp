#include "report_setup.hpp"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

#include "check_docs.hpp"
#include "cuvet/core/error.hpp"
#include "cuvet/core/printable.hpp"
#include "cuvet/rules_bundle/bundle.hpp"

namespace cuvet::cli {

ReportSetup load_report_setup(const std::string& fail_on, const std::string& config_path,
                              const std::vector<std::string>& ignore,
                              const std::string& rules_dir) {
    std::optional<report::FailOn> threshold;
    if (!fail_on.empty()) {
        threshold = report::parse_fail_on(fail_on);
        if (!threshold)
            fail_usage("--fail-on must be error, warning, info or never, not '" + fail_on + "'");
    }
    // "none": no file at all, not even ./.cuvet.yaml (a CI job judging a pull
    // request whose checkout it does not trust).
    config::Config config =
        config_path == "none"
            ? config::Config{}
            : config::load_config(config_path.empty()
                                      ? std::nullopt
                                      : std::optional<std::filesystem::path>(config_path));
    std::set<std::string> file_ignored = config.ignored;
    for (const auto& id : ignore) {
        std::string upper = id;
        for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        config.ignored.insert(upper);
    }
    // --rules-dir, else a cached bundle that verifies, else the compiled-in rules.
    rules_bundle::ActiveRules rules = rules_bundle::load_active_rules(
        rules_dir.empty() ? std::nullopt : std::optional<std::filesystem::path>(rules_dir));
    if (!rules.note.empty()) std::cerr << "cuvet: " << printable(rules.note) << "\n";
    return ReportSetup{threshold,
                       std::move(config),
                       std::move(rules.db),
                       std::move(rules.version),
                       std::move(rules.origin),
                       std::move(file_ignored)};
}

ReportSetup load_report_setup(const ReportOptions& options) {
    return load_report_setup(options.fail_on, options.config, options.ignore, options.rules_dir);
}

report::FailOn fail_threshold(const ReportSetup& setup) {
    return setup.fail_on.value_or(setup.config.fail_on.value_or(report::FailOn::error));
}

report::ReportContext report_context(const ReportSetup& setup, const std::string& command,
                                     std::vector<std::string> targets,
                                     const std::vector<report::Finding>& silenced,
                                     checks::CheckKind kind) {
    report::ReportContext context;
    context.tool_version = CUVET_VERSION;
    context.command = command;
    context.rules_version = setup.rules_version;
    context.rules_origin = setup.rules_origin;
    context.targets = std::move(targets);
    context.silenced = silenced_by_file(setup, silenced);
    context.silenced_by = setup.config.path;
    context.rules = documented_rules(kind);
    context.information_uri = repository_url();
    return context;
}

std::vector<report::Finding> silenced_by_file(const ReportSetup& setup,
                                              const std::vector<report::Finding>& silenced) {
    std::vector<report::Finding> out;
    if (setup.config.path.empty()) return out;
    for (const auto& finding : silenced)
        if (setup.file_ignored.count(finding.id) > 0) out.push_back(finding);
    return out;
}

void note_config_effects(const ReportSetup& setup, const std::vector<report::Finding>& silenced,
                         bool fail_on_given) {
    const std::string& file = setup.config.path;
    if (file.empty()) return;
    std::map<std::string, std::size_t> counts;  // id → findings the file silenced
    for (const auto& finding : silenced_by_file(setup, silenced)) ++counts[finding.id];
    if (!counts.empty()) {
        std::string line;
        std::size_t total = 0;
        for (const auto& [id, count] : counts) {
            line +=
                (line.empty() ? "" : ", ") + id + (count > 1 ? " x" + std::to_string(count) : "");
            total += count;
        }
        std::cerr << "cuvet: note: " << printable(file) << " silenced " << total
                  << (total == 1 ? " finding: " : " findings: ") << line << "\n";
    }
    if (setup.config.fail_on && !fail_on_given && *setup.config.fail_on != report::FailOn::error)
        std::cerr << "cuvet: note: " << printable(file)
                  << " sets fail_on: " << report::to_string(*setup.config.fail_on) << "\n";
}

void write_report(const report::Renderer& renderer, const std::vector<report::Finding>& findings,
                  report::ReportContext& context, const std::string& format,
                  const std::string& output, bool no_color) {
    if (output.empty()) {
        context.color = format == "text" && !no_color && report::stdout_wants_color();
        renderer.render(findings, context, std::cout);
        std::cout.flush();
        return;
    }
    context.color = false;
    std::ofstream out(output, std::ios::binary);
    if (!out) fail_io(output + ": cannot write: " + std::strerror(errno));
    renderer.render(findings, context, out);
    if (!out.flush()) fail_io(output + ": write failed");
}

}  // namespace cuvet::cli
