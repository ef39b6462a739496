#pragma once
// Each cuvet subcommand lives in its own cmd_<name>.cpp and registers itself
// here; main.cpp only lists them. The CLI parses and prints; it holds no logic.
#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "cuvet/cache/store.hpp"
#include "cuvet/image/image.hpp"

namespace cuvet::cli {

// The command that CLI11 selected sets `run`; main calls it and maps
// cuvet::Error categories to exit codes.
struct Dispatch {
    std::function<int()> run;
};

// Options every command that reads an image shares.
struct ImageArgs {
    std::string path;
    std::string image;
    std::string platform;
    bool no_verify = false;
    unsigned workers = 0;  // 0: one per core
    std::string username;  // registries: --username, the password from --password-stdin
    bool password_stdin = false;
    bool insecure = false;
    unsigned timeout = 900;        // --timeout: seconds per HTTP request; 0: none
    unsigned stall_timeout = 30;   // --stall-timeout: seconds under 1 KiB/s before a request fails
    bool cross_host_auth = false;  // --cross-host-auth
    std::vector<std::string> limits;  // --limit NAME=VALUE (docs/limits.md)

    bool no_cache = false;
    bool allow_partial = false;  // --allow-partial (validate)
    std::string cache_key_file;

    void add_to(CLI::App& command);
    // --no-cache, for the commands that read layer facts (validate, inventory, ldd).
    void add_cache_option(CLI::App& command);
    // --allow-partial, for validate: an unreadable rootfs path is a finding, not an error.
    void add_partial_option(CLI::App& command);
    image::OpenOptions open_options() const;
    // Reads the password from stdin on first use only: a command may open its image twice.
    mutable std::optional<std::string> password_read;
    // The layer fact cache, or null with --no-cache or when the cache cannot
    // be trusted (said once on stderr).
    std::unique_ptr<cache::Store> layer_cache() const;
};

// --runtime-start nvidia|none (validate, probe): whether the container starts as the NVIDIA
// container toolkit starts it (driver injected, ldconfig over the image's ld.so.conf).
void add_runtime_start_option(CLI::App& command, bool& nvidia_start);

void add_files_command(CLI::App& app, Dispatch& dispatch);
void add_image_command(CLI::App& app, Dispatch& dispatch);
void add_rules_command(CLI::App& app, Dispatch& dispatch);
// `rules push` and `rules pull`, under the `rules` command.
void add_rules_bundle_commands(CLI::App& rules, Dispatch& dispatch);
void add_explain_command(CLI::App& app, Dispatch& dispatch);
void add_elf_command(CLI::App& app, Dispatch& dispatch);
void add_probe_command(CLI::App& app, Dispatch& dispatch);
void add_ldd_command(CLI::App& app, Dispatch& dispatch);
void add_inventory_command(CLI::App& app, Dispatch& dispatch);
void add_lint_command(CLI::App& app, Dispatch& dispatch);
void add_validate_command(CLI::App& app, Dispatch& dispatch);
void add_freeze_command(CLI::App& app, Dispatch& dispatch);
void add_diff_command(CLI::App& app, Dispatch& dispatch);
void add_cache_command(CLI::App& app, Dispatch& dispatch);
// `fleet scan` and `fleet report` (docs/fleet.md).
void add_fleet_command(CLI::App& app, Dispatch& dispatch);
void add_version_command(CLI::App& app, Dispatch& dispatch, const std::string& version);
// Generated from the CLI11 definition itself, so they cannot drift from it:
// shell completions, the man page and docs/checks/*.md.
void add_completion_command(CLI::App& app, Dispatch& dispatch);
void add_man_command(CLI::App& app, Dispatch& dispatch);
void add_docs_command(CLI::App& app, Dispatch& dispatch);

}  // namespace cuvet::cli
