#include "report_options.hpp"

namespace cuvet::cli {

void add_report_options(CLI::App& command, ReportOptions& options) {
    command
        .add_option(
            "--format,-f", options.format,
            "text, json, sarif, junit, codeclimate (GitLab Code Quality), checkstyle or gnu")
        ->default_str("text");
    command.add_option("--fail-on", options.fail_on,
                       "exit 1 when a finding is at least: error, warning, info, never (default: "
                       "error, or fail_on in .cuvet.yaml)");
    command
        .add_option("--driver", options.drivers,
                    "a fleet driver version the image must run on (repeatable)")
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    command.add_option("--ignore", options.ignore, "a check id never to report (repeatable)")
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    command.add_option("--config", options.config,
                       "settings file (default: ./.cuvet.yaml when present; none: no file)");
    command.add_option("--rules-dir", options.rules_dir,
                       "directory whose *.json replace the built-in rules tables");
    command.add_option("--output,-o", options.output, "write the report to FILE instead of stdout");
    command.add_flag("--no-color", options.no_color, "no ANSI colours (as NO_COLOR=1)");
}

}  // namespace cuvet::cli
