#pragma once
// What `freeze`, `diff` and `validate --against` share: turning an image (scanned
// as validate scans it) or a lock file into a lock::Lock.
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "commands.hpp"
#include "cuvet/lock/lock.hpp"
#include "cuvet/rules/database.hpp"

namespace cuvet::cli {

struct StackArgs {
    ImageArgs image;
    std::vector<std::string> env;
    bool nvidia_start = true;
    std::string rules_dir;
    bool no_progress = false;
    bool progress = false;
    // --env, --runtime-start, --rules-dir, --no-progress and --progress, worded as validate words
    // them.
    void add_stack_options(CLI::App& command);
};

// The lock of `path` read as an image (with args' image options).
lock::Lock lock_of_image(const std::string& path, const StackArgs& args, const rules::Database& db);
// A lock file when `path` is a regular file that starts like one, else the image's lock;
// a regular file that is neither a lock nor an archive is Error(input) saying what was expected.
lock::Lock lock_of(const std::string& path, const StackArgs& args, const rules::Database& db);
// A lock file; a missing or malformed one is Error(io/input) naming it.
lock::Lock read_lock_file(const std::string& path);

}  // namespace cuvet::cli
