// `cuvet validate IMAGE`: every CUDA/cuDNN incompatibility in an image, with
// evidence and a fix; the exit code gates CI. The work is validate::validate;
// this file merges options with .cuvet.yaml, shows progress and renders.
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "check_docs.hpp"
#include "commands.hpp"
#include "conventions.hpp"
#include "cuvet/checks/registry.hpp"
#include "cuvet/config/config.hpp"
#include "cuvet/core/error.hpp"
#include "cuvet/core/text_input.hpp"
#include "cuvet/frameworks/framework.hpp"
#include "cuvet/report/fail_on.hpp"
#include "cuvet/report/renderer.hpp"
#include "cuvet/rules/database.hpp"
#include "cuvet/sandbox/framework_findings.hpp"
#include "cuvet/sandbox/live_check.hpp"
#include "cuvet/validate/validate.hpp"
#include "exit_codes.hpp"
#include "progress.hpp"
#include "report_setup.hpp"
#include "stack_lock.hpp"
#include "targets.hpp"

namespace cuvet::cli {
namespace {

struct ValidateArgs {
    ImageArgs image;
    ReportOptions report;
    std::vector<std::string> gpus;
    std::string dockerfile;
    std::vector<std::string> env;
    bool nvidia_start = true;
    bool no_progress = false;
    bool progress = false;
    bool verbose = false;
    bool probe = false;
    unsigned probe_timeout = 120;
    std::string probe_frameworks = "auto";
    std::string probe_runtime = "auto";
    std::string container_image;
    std::string against;
    std::string against_mode = "compatible";
    std::string nodes;
};

int run_validate(const ValidateArgs& args) {
    auto renderer = report::make_renderer(args.report.format);  // usage error before any work
    ReportSetup setup = load_report_setup(args.report);
    const config::Config& config = setup.config;
    const rules::Database& db = setup.db;

    validate::Options options;
    options.open = args.image.open_options();
    options.workers = args.image.workers;
    options.targets = make_targets(args.report.drivers, args.gpus, args.nodes, config, db);
    options.env_overrides = args.env;
    options.nvidia_start = args.nvidia_start;
    std::optional<lock::Lock> against;
    if (!args.against.empty()) {
        against = read_lock_file(args.against);  // a bad lock is exit 3 before the long scan
        options.targets.against = &*against;
        options.targets.against_exact = args.against_mode == "exact";
    }
    if (!args.dockerfile.empty()) {
        options.dockerfile_path = args.dockerfile;
        // The Dockerfile is the checkout's, as for lint: a regular file inside the working tree.
        options.dockerfile_text = read_text_input(args.dockerfile);
    }
    std::unique_ptr<Progress> progress;
    if (args.progress || (!args.no_progress && isatty(STDERR_FILENO) != 0)) {
        progress =
            std::make_unique<Progress>("reading " + args.image.path, isatty(STDERR_FILENO) != 0);
        options.on_progress = progress->layer_callback();
    }
    auto layer_cache = args.image.layer_cache();
    options.layer_cache = layer_cache.get();
    if (args.probe) {
        // The live check runs after the static checks, on the image they read: not reopened, and
        // a registry image's layers not fetched again.
        options.open.keep_fetched_blobs = true;
        options.live_check = [&args, &progress](const image::Image& image,
                                                validate::Result& result) {
            if (progress) progress->finish();
            sandbox::ProbeRunOptions probe;
            probe.probe_binary = sandbox::find_probe_binary();
            probe.timeout = std::chrono::seconds(args.probe_timeout);
            probe.env_overrides = args.env;
            probe.frameworks = sandbox::parse_framework_list(args.probe_frameworks);
            probe.runtime = args.probe_runtime;
            probe.nvidia_start = args.nvidia_start;
            probe.container_image = args.container_image;
            probe.image_archive = args.image.path;
            sandbox::ProbeOutcome outcome = sandbox::run_live_check(image, probe);
            // Static vs live: a disagreement is a cuvet bug or a missing rule, shown to the user
            // either way.
            std::vector<report::Finding> disagreements = sandbox::static_live_disagreements(
                result.findings, outcome.frameworks, outcome.plan.expect.cudnn_version,
                outcome.plan.expect.cudnn_source);
            for (auto& finding : outcome.findings) result.findings.push_back(std::move(finding));
            for (auto& finding : disagreements) result.findings.push_back(std::move(finding));
        };
    }
    auto result = validate::validate(args.image.path, options, db, config);
    if (progress) progress->finish();
    note_config_effects(setup, result.silenced, !args.report.fail_on.empty());

    auto context = report_context(setup, "validate", {args.image.path}, result.silenced,
                                  checks::CheckKind::validate);
    if (args.probe)  // the live check's findings are rules of the report too (SARIF, JUnit)
        for (auto& rule : documented_rules(checks::CheckKind::live))
            context.rules.push_back(std::move(rule));
    context.summary = result.summary;
    context.verbose = args.verbose;  // text: one line per finding unless asked
    auto findings = report::sorted_for_report(std::move(result.findings));
    write_report(*renderer, findings, context, args.report.format, args.report.output,
                 args.report.no_color);
    return report::exit_code(findings, fail_threshold(setup));
}

}  // namespace

void add_validate_command(CLI::App& app, Dispatch& dispatch) {
    auto args = std::make_shared<ValidateArgs>();
    CLI::App* command = app.add_subcommand(
        "validate", "find every CUDA/cuDNN incompatibility in an image, with evidence and the fix");
    args->image.add_to(*command);
    args->image.add_cache_option(*command);
    args->image.add_partial_option(*command);
    add_report_options(*command, args->report);
    command->add_flag("--probe", args->probe,
                      "also run the live GPU check with the image's own libraries on this host's "
                      "GPU: a cuDNN convolution "
                      "and each framework's smoke test (as `cuvet probe`; exit 3 without a GPU)");
    command
        ->add_option("--probe-timeout", args->probe_timeout,
                     "seconds before a hung probe is killed")
        ->default_val(120);
    command
        ->add_option("--probe-runtime", args->probe_runtime,
                     "with --probe: auto (podman with a CDI GPU spec, docker with the NVIDIA "
                     "runtime, else builtin), "
                     "builtin, docker or podman")
        ->check(CLI::IsMember({"auto", "builtin", "docker", "podman"}))
        ->default_str("auto");
    command->add_option("--container-image", args->container_image,
                        "with --probe-runtime docker/podman: the image reference the engine has");
    command
        ->add_option("--probe-frameworks", args->probe_frameworks,
                     "with --probe: the frameworks whose own smoke test runs with the image's "
                     "python: auto (every one "
                     "found), none, or a list of " +
                         frameworks::smoke_list(","))
        ->default_str("auto");
    command->add_option("--gpu", args->gpus, "a target GPU: H100, sm_90 or 8.6 (repeatable)")
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    command->add_option("--env", args->env,
                        "KEY=VALUE the container will run with, on top of the image's Env "
                        "(repeatable; as docker run -e)");
    command->add_option(
        "--nodes", args->nodes,
        "`kubectl get nodes -o json` output: each GPU node pool's driver and GPU (NVIDIA GPU "
        "Feature "
        "Discovery labels) become targets, and findings name the pools the image cannot run on");
    command->add_option("--against", args->against,
                        "a lock file from `cuvet freeze`: the image must still have that CUDA "
                        "stack (CUV018, docs/freeze.md)");
    command
        ->add_option("--against-mode", args->against_mode,
                     "with --against: compatible (default: changes that break are errors, that may "
                     "break warnings) "
                     "or exact (every change in the stack is an error)")
        ->check(CLI::IsMember({"compatible", "exact"}))
        ->default_str("compatible");
    add_runtime_start_option(*command, args->nvidia_start);
    command->add_option("--dockerfile", args->dockerfile,
                        "the Dockerfile the image was built from: findings also point at the line "
                        "that made the file's layer");
    command->add_flag("--no-progress", args->no_progress, "no progress on stderr");
    command->add_flag("--progress", args->progress,
                      "progress (layers and bytes read) on stderr even when it is not a terminal");
    command->add_flag("--verbose,-v", args->verbose,
                      "text: also each finding's evidence (search traces, provenance); json and "
                      "sarif always carry it");
    read_flags_from_env(*command);
    command->callback([args, &dispatch] { dispatch.run = [args] { return run_validate(*args); }; });
}

}  // namespace cuvet::cli
