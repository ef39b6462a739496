#pragma once
// What users of hadolint, trivy and git expect of a command line: every flag
// of the CI commands from CUVET_<FLAG>, "did you mean validate?" for a
// misspelt command, and an unknown option named as such.
#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

namespace cuvet::cli {

// CUVET_FAIL_ON for --fail-on: upper case, '-' becomes '_'.
std::string env_name_for(const std::string& long_name);
// Gives every named option of `command` (not --help) its CUVET_<FLAG>; a
// flag given on the command line wins. Lists take commas (CUVET_DRIVER=535.104.05,550.54.15).
void read_flags_from_env(CLI::App& command);

// The candidate closest to `word` by edit distance, when close enough to be a typo.
std::optional<std::string> closest_match(const std::string& word,
                                         const std::vector<std::string>& candidates);

// Before parsing: a first word that names no command ("valdate") is a usage
// error with a suggestion. Nullopt when the command line starts with a command or an option.
std::optional<std::string> unknown_command_error(const CLI::App& app, int argc, char** argv);

// A parse error as one line: an unknown option is named as an option of its
// command (with a suggestion), not as an unexpected argument.
std::string parse_error_line(const CLI::App& app, const CLI::ParseError& error);

}  // namespace cuvet::cli
