#pragma once
// Dockerfile syntax tree, parsed the way BuildKit's frontend parser does it
// (parser directives, continuations with comments and blank lines inside,
// JSON and shell forms, heredocs, builder flags, ONBUILD). Semantic meaning
// (stages, ARG scoping, substitution) lives in stages.hpp; this layer keeps
// exactly what BuildKit keeps, so the upstream conformance cases apply.
#include <string>
#include <string_view>
#include <vector>

namespace cuvet::dockerfile {

struct Heredoc {
    std::string name;     // terminator word, quotes removed
    int fd = 0;           // `3<<EOF` → 3; 0 when not given
    bool expand = true;   // false when any part of the word was quoted
    bool chomp = false;   // `<<-`: leading tabs are stripped
    std::string content;  // lines between the instruction and the terminator
};

struct Instruction {
    std::string keyword;             // lower case: "run", "from", "copy", …
    std::string original;            // the logical line, continuations joined
    std::vector<std::string> flags;  // builder flags as written: "--from=build"
    // The node values BuildKit produces: words for FROM/ARG/COPY, one shell
    // string for shell-form RUN/CMD, decoded strings for JSON form, and
    // (key, value, separator) triples for ENV and LABEL.
    std::vector<std::string> args;
    bool json = false;                  // JSON (exec) form
    std::vector<Heredoc> heredocs;      // RUN/COPY/ADD `<<EOF` bodies
    std::vector<Instruction> onbuild;   // ONBUILD's inner instruction (0 or 1)
    std::vector<std::string> comments;  // comment lines directly above
    int start_line = 0;                 // 1-based, first physical line
    int end_line = 0;                   // last physical line (heredoc bodies included)
};

struct Comment {
    int line = 0;
    std::string text;  // after '#', trimmed
};

struct Dockerfile {
    std::string name;  // file name for messages ("-" for stdin)
    char escape = '\\';
    std::string syntax;  // `# syntax=` directive, empty when absent
    std::vector<Instruction> instructions;
    std::vector<Comment> comments;  // every comment line, for `# cuvet ignore=` pragmas
    std::vector<std::string> warnings;
};

// Parses `text`. Throws cuvet::Error (input) naming `name` and the line on
// malformed input: unterminated heredoc, non-string JSON arrays, ENV without
// a value, a line longer than docker accepts, NUL bytes, no instructions.
Dockerfile parse(std::string_view text, const std::string& name = "Dockerfile");

// BuildKit's normalised dump: one `(keyword "arg" …)` line per instruction.
// The upstream conformance `result` files are written in this format.
std::string dump(const Dockerfile& dockerfile);
std::string dump(const Instruction& instruction);

}  // namespace cuvet::dockerfile
