#pragma once
// Small helpers the listing commands share: --format parsing and human sizes.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

namespace cuvet::cli {

// Adds "--format" restricted to `choices` (the first is the default).
void add_format_option(CLI::App& command, std::string& format, std::vector<std::string> choices);

std::string human_size(std::uint64_t bytes);  // "12.3 MB"
std::string octal_mode(std::uint32_t mode);   // "0755"

}  // namespace cuvet::cli
