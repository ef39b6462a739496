#pragma once
// Per-instruction argument parsers: BuildKit's dispatch table, one function
// per argument syntax (words, key=value, JSON-or-string, health config).
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "cuvet/dockerfile/parser.hpp"

namespace cuvet::dockerfile::detail {

// A syntax error without a location; parse() adds file and line.
struct SyntaxError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Fills keyword, flags, args, json and onbuild of `out` from one logical line.
void parse_logical_line(std::string_view line, char escape, Instruction& out);

// The raw shell-like words of a line (quotes and escapes kept), used to find
// heredoc markers; empty when quoting is unbalanced, as BuildKit ignores those.
std::vector<std::string> heredoc_candidate_words(std::string_view line);
// `<<EOF`, `<<-"EOF"`, `3<<'EOF'` → a Heredoc with empty content; false otherwise.
bool parse_heredoc_marker(std::string_view word, Heredoc& out);

}  // namespace cuvet::dockerfile::detail
