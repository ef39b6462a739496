// `cuvet lint [DOCKERFILE…]`: the CUDA-aware Dockerfile linter. Parsing,
// facts and checks live in the library (cuvet/lint/lint.hpp); this file reads
// files, merges options with .cuvet.yaml and renders.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <sstream>

#include "check_docs.hpp"
#include "commands.hpp"
#include "conventions.hpp"
#include "cuvet/checks/registry.hpp"
#include "cuvet/config/config.hpp"
#include "cuvet/core/error.hpp"
#include "cuvet/core/printable.hpp"
#include "cuvet/core/scan_limits.hpp"
#include "cuvet/core/text_input.hpp"
#include "cuvet/dockerfile/parser.hpp"
#include "cuvet/lint/lint.hpp"
#include "cuvet/report/fail_on.hpp"
#include "cuvet/report/renderer.hpp"
#include "cuvet/rules/database.hpp"
#include "exit_codes.hpp"
#include "report_setup.hpp"

namespace cuvet::cli {
namespace {

struct LintArgs {
    std::vector<std::string> files;
    ReportOptions report;
    std::vector<std::string> build_args;
    std::string target;
    bool dump = false;
    std::vector<std::string> limits;  // --limit NAME=VALUE (docs/limits.md)
};

std::string read_input(const std::string& path) {
    std::error_code ec;
    if (path != "-" && std::filesystem::is_directory(path, ec))
        fail_io(path + ": is a directory, not a Dockerfile");
    return read_text_input(path);
}

int run_lint(const LintArgs& args) {
    // Before anything is read: input-bytes bounds the first read.
    set_scan_limits(ScanLimits{});
    for (const auto& limit : args.limits) set_scan_limit(limit);
    const std::vector<std::string> files =
        args.files.empty() ? std::vector<std::string>{"Dockerfile"} : args.files;
    if (args.dump) {
        for (const auto& file : files) {
            std::cout << dockerfile::dump(
                dockerfile::parse(read_input(file), file == "-" ? "<stdin>" : file));
        }
        return exit_ok;
    }
    auto renderer =
        report::make_renderer(args.report.format);  // usage error on a bad name, before any work
    ReportSetup setup = load_report_setup(args.report);
    const config::Config& config = setup.config;
    const rules::Database& db = setup.db;

    lint::Options options;
    options.target = args.target;
    for (const auto& driver : config.drivers) options.drivers.push_back(driver.str());
    if (!args.report.drivers.empty()) {
        options.drivers.clear();
        for (const auto& driver : args.report.drivers) {
            rules::Version::parse_or_throw(driver, "--driver");
            options.drivers.push_back(driver);
        }
    }
    for (const auto& pair : args.build_args) {
        auto eq = pair.find('=');
        if (eq == std::string::npos || eq == 0)
            fail_usage("--build-arg wants NAME=VALUE, not '" + pair + "'");
        options.build_args[pair.substr(0, eq)] = pair.substr(eq + 1);
    }

    std::vector<report::Finding> findings;
    std::vector<std::string> targets;
    int bad_inputs = 0;
    for (const auto& file : files) {
        const std::string name = file == "-" ? "<stdin>" : file;
        try {
            auto result = lint::lint_text(read_input(file), name, db, options);
            targets.push_back(name);
            for (const auto& warning : result.warnings)
                std::cerr << "cuvet: warning: " << printable(warning) << "\n";
            for (auto& f : result.findings) findings.push_back(std::move(f));
        } catch (const Error& e) {
            // One bad file must not hide the findings of the others; it still decides the exit
            // code.
            if (e.kind() != ErrorKind::input && e.kind() != ErrorKind::io) throw;
            std::cerr << "cuvet: error: " << printable(e.what()) << "\n";
            ++bad_inputs;
        }
    }
    // Nothing was read: the error lines are the whole answer, not an empty report.
    if (targets.empty()) return exit_bad_input;
    const auto silenced = config::apply(setup.config, findings);
    note_config_effects(setup, silenced, !args.report.fail_on.empty());
    auto context =
        report_context(setup, "lint", std::move(targets), silenced, checks::CheckKind::lint);
    write_report(*renderer, report::sorted_for_report(findings), context, args.report.format,
                 args.report.output, args.report.no_color);
    if (bad_inputs > 0) return exit_bad_input;
    return report::exit_code(findings, fail_threshold(setup));
}

}  // namespace

void add_lint_command(CLI::App& app, Dispatch& dispatch) {
    auto args = std::make_shared<LintArgs>();
    CLI::App* command =
        app.add_subcommand("lint",
                           "lint Dockerfiles for CUDA/cuDNN mistakes (wheel vs base CUDA, unpinned "
                           "stacks, tags that do not exist, …)");
    command->add_option("DOCKERFILE", args->files,
                        "Dockerfiles to lint ('-' reads stdin); default ./Dockerfile");
    add_report_options(*command, args->report);
    command
        ->add_option("--build-arg", args->build_args,
                     "NAME=VALUE, as for docker build (repeatable)")
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    command->add_option("--target", args->target,
                        "lint as if building this stage (default: the last)");
    command
        ->add_option("--limit", args->limits,
                     "raise or lower a limit, NAME=VALUE, repeatable (docs/limits.md): "
                     "input-bytes, expansion-bytes, stages")
        ->type_name("NAME=VALUE")
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    command->add_flag("--dump-ast", args->dump,
                      "print BuildKit's normalised parse of each file and exit");
    read_flags_from_env(*command);
    command->callback([args, &dispatch] { dispatch.run = [args] { return run_lint(*args); }; });
}

}  // namespace cuvet::cli
