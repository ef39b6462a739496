#pragma once
// A small POSIX-sh lexer shared by Dockerfile word substitution (FROM, ENV,
// ARG, COPY --from: quotes removed, `$VAR`, `${VAR:-default}`, `${VAR:+alt}`
// substituted, as BuildKit does) and by the RUN command splitter (words,
// `&&`, `||`, `;`, `|`, subshells, `sh -c "…"` recursion) that the stack
// facts are read from.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cuvet::dockerfile::shell {

// Returns a variable's value, or nullopt when it is not set.
using Lookup = std::function<std::optional<std::string>(std::string_view name)>;

struct ExpandOptions {
    char escape = '\\';
    // Unset variables stay as written ("$X") instead of becoming empty, so a
    // reader can tell "unknown at lint time" from "empty".
    bool keep_unset = false;
};

// One Dockerfile word: quotes removed, variables substituted. Throws
// cuvet::Error (input) on unbalanced quotes or an unterminated `${`.
std::string expand_word(std::string_view word, const Lookup& lookup,
                        const ExpandOptions& options = {});

// Whitespace-separated words, each expanded like expand_word.
std::vector<std::string> expand_words(std::string_view text, const Lookup& lookup,
                                      const ExpandOptions& options = {});

// One simple command of a script, with environment assignments and wrapper
// programs (sudo, env, nohup, …) left out, as a package-install finder wants.
struct Command {
    std::vector<std::string> words;
};

// Splits a shell script into simple commands; `sh -c 'script'` and
// `bash -lc "script"` are split recursively. Variables are substituted with
// `lookup` (unknown ones kept as written). Throws cuvet::Error (input) on
// unbalanced quotes.
std::vector<Command> split_commands(std::string_view script, const Lookup& lookup);

// The same for an exec-form argv (`RUN ["sh", "-c", "…"]`): unwrapped and,
// for a shell with -c, its script split. No substitution outside that script.
std::vector<Command> split_argv(const std::vector<std::string>& argv, const Lookup& lookup);

}  // namespace cuvet::dockerfile::shell
