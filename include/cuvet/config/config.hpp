#pragma once
// .cuvet.yaml: project settings shared by `validate` and `lint`.
//
//   ignore: [CUV013, CUVL03]          # ids never reported
//   severity:                         # per-id severity overrides
//     CUV003: error
//   targets:
//     drivers: ["535.104.05"]         # fleet drivers (like --driver)
//     gpus: [H100, "8.6"]             # target GPUs (like --gpu)
//   trusted_library_dirs: [/opt/vendor/lib]
//   fail_on: warning                  # default for --fail-on
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cuvet/report/fail_on.hpp"
#include "cuvet/report/finding.hpp"
#include "cuvet/rules/version.hpp"

namespace cuvet::config {

struct Config {
    std::string path;               // the file it came from; empty for the defaults
    std::set<std::string> ignored;  // upper-case ids
    std::map<std::string, report::Severity> severity;  // upper-case id → severity
    std::vector<rules::Version> drivers;
    std::vector<std::string> gpus;
    std::vector<std::string> trusted_library_dirs;
    std::optional<report::FailOn> fail_on;
};

// Parses YAML text; `origin` names it in errors. Throws cuvet::Error(input)
// "ORIGIN:LINE:COLUMN: problem" on bad YAML or a bad value.
Config parse_config(const std::string& text, const std::string& origin);

// --config PATH when given (must exist: io error otherwise), else ./.cuvet.yaml
// in `working_dir` when present, else the defaults.
Config load_config(const std::optional<std::filesystem::path>& explicit_path,
                   const std::filesystem::path& working_dir = std::filesystem::current_path());

// Drops ignored findings and applies severity overrides; returns the
// findings it dropped, so that what a config silenced is shown, not hidden.
std::vector<report::Finding> apply(const Config& config, std::vector<report::Finding>& findings);

}  // namespace cuvet::config
