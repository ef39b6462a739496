#pragma once
// The options `validate` and `lint` share, declared once so that their words and defaults cannot
// drift apart: how the report is written (--format, --output, --no-color) and what judges it
// (--fail-on, --driver, --ignore, --config, --rules-dir).
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace cuvet::cli {

struct ReportOptions {
    std::string format = "text";
    std::string fail_on;
    std::vector<std::string> drivers;
    std::vector<std::string> ignore;
    std::string config;
    std::string rules_dir;
    std::string output;
    bool no_color = false;
};

void add_report_options(CLI::App& command, ReportOptions& options);

}  // namespace cuvet::cli
