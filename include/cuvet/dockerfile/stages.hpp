#pragma once
// What a Dockerfile means, as BuildKit evaluates it: stages, global and
// per-stage ARG scoping, ENV inheritance from a parent stage, substitution
// in FROM/ENV/ARG/COPY --from, and each RUN split into simple commands.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cuvet/dockerfile/parser.hpp"
#include "cuvet/dockerfile/shell.hpp"

namespace cuvet::dockerfile {

struct Variable {
    std::string name;
    std::string value;       // substituted; may keep "$X" where X is unknown
    bool has_value = false;  // `ARG X` without default and no build arg: false
    int line = 0;
};

struct RunStep {
    std::size_t instruction = 0;  // index into Dockerfile::instructions
    int start_line = 0;
    int end_line = 0;
    std::vector<shell::Command> commands;
};

struct CopyFrom {
    std::string from;                  // stage name (lower case), index or image
    std::vector<std::string> sources;  // source paths as written
    int line = 0;
};

struct Stage {
    std::size_t index = 0;
    std::string name;      // `AS name` in lower case; empty when unnamed
    std::string base;      // image reference after substitution ("$X" kept if unknown)
    std::string platform;  // --platform, substituted
    std::optional<std::size_t> base_stage;  // FROM an earlier stage
    int from_line = 0;
    int end_line = 0;
    std::vector<std::size_t> instructions;  // FROM and everything up to the next FROM
    std::vector<RunStep> runs;
    std::vector<Variable> env;        // ENV in order; a parent stage's ENV comes first
    std::vector<Variable> args;       // ARGs declared in this stage
    std::vector<CopyFrom> copy_from;  // COPY/ADD --from=…

    // The value a RUN of this stage would see at its end (ENV over ARG).
    std::optional<std::string> lookup(std::string_view name) const;
};

struct Build {
    std::vector<Variable> global_args;  // ARGs before the first FROM
    std::vector<Stage> stages;
    std::size_t final_stage = 0;  // the last stage, or the --target one
};

struct AnalyzeOptions {
    std::map<std::string, std::string> build_args;  // --build-arg
    std::string target;                             // --target; empty = last stage
    std::string platform = "linux/amd64";           // for TARGETPLATFORM & co.
};

// Throws cuvet::Error (input) with file:line on instructions docker would
// reject: unknown instruction, anything but ARG before the first FROM, FROM
// without an image, unbalanced quotes in a substituted word or RUN command,
// an unknown --target.
Build analyze(const Dockerfile& dockerfile, const AnalyzeOptions& options = {});

}  // namespace cuvet::dockerfile
