#pragma once
// What `validate` and `lint` both settle before judging: the --fail-on
// threshold, .cuvet.yaml plus --ignore, and the rules database.
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cuvet/checks/registry.hpp"
#include "cuvet/config/config.hpp"
#include "cuvet/report/fail_on.hpp"
#include "cuvet/report/renderer.hpp"
#include "cuvet/rules/database.hpp"
#include "report_options.hpp"

namespace cuvet::cli {

struct ReportSetup {
    std::optional<report::FailOn> fail_on;  // from --fail-on; nullopt: config or default
    config::Config config;
    rules::Database db;
    // How reports name the rules judged with (docs/rules-bundle.md).
    std::string rules_version;
    std::string rules_origin;
    // The ids the config file itself ignores (config.ignored adds --ignore).
    std::set<std::string> file_ignored;
};

ReportSetup load_report_setup(const std::string& fail_on, const std::string& config_path,
                              const std::vector<std::string>& ignore, const std::string& rules_dir);
ReportSetup load_report_setup(const ReportOptions& options);

// The finding severity that fails the run: --fail-on, else the config's fail_on, else error.
report::FailOn fail_threshold(const ReportSetup& setup);

// What every report of `command` names: cuvet's version, the rules judged with, the targets,
// what the config file silenced, and the documented rules of checks of `kind`.
report::ReportContext report_context(const ReportSetup& setup, const std::string& command,
                                     std::vector<std::string> targets,
                                     const std::vector<report::Finding>& silenced,
                                     checks::CheckKind kind);

// A config file in a checkout is the pull request's to edit: what it silenced
// (ignored findings, its fail_on) is said on stderr, one line each, naming the
// file, so that a red run turned green shows in the log. --config none reads
// no file (docs/report-formats.md, "Configuration").
void note_config_effects(const ReportSetup& setup, const std::vector<report::Finding>& silenced,
                         bool fail_on_given);

// Of the findings config::apply silenced, those the config file's `ignore`
// silenced (not --ignore): the report lists them with the file's name.
std::vector<report::Finding> silenced_by_file(const ReportSetup& setup,
                                              const std::vector<report::Finding>& silenced);

// Renders to stdout, or to `output` when not empty (-o FILE; a file that
// cannot be written is an io error naming it). Colour only for text on a
// terminal, without --no-color and NO_COLOR.
void write_report(const report::Renderer& renderer, const std::vector<report::Finding>& findings,
                  report::ReportContext& context, const std::string& format,
                  const std::string& output, bool no_color);

}  // namespace cuvet::cli
