// cuvet command line: parse, dispatch, map errors to exit codes.
#include <cstdio>
#include <exception>
#include <iostream>

#include "commands.hpp"
#include "conventions.hpp"
#include "cuvet/core/error.hpp"
#include "cuvet/core/printable.hpp"
#include "cuvet/rules_bundle/refused.hpp"
#include "exit_codes.hpp"

int main(int argc, char** argv) {
    using namespace cuvet;
    CLI::App app{"cuvet — catch CUDA/cuDNN breakage in container images before they ship"};
    const std::string version = std::string("cuvet ") + CUVET_VERSION;
    app.set_version_flag("-V,--version", version);
    app.require_subcommand(1);
    cli::Dispatch dispatch;
    cli::add_validate_command(app, dispatch);
    cli::add_lint_command(app, dispatch);
    cli::add_inventory_command(app, dispatch);
    cli::add_freeze_command(app, dispatch);
    cli::add_diff_command(app, dispatch);
    cli::add_ldd_command(app, dispatch);
    cli::add_elf_command(app, dispatch);
    cli::add_files_command(app, dispatch);
    cli::add_image_command(app, dispatch);
    cli::add_probe_command(app, dispatch);
    cli::add_rules_command(app, dispatch);
    cli::add_explain_command(app, dispatch);
    cli::add_cache_command(app, dispatch);
    cli::add_fleet_command(app, dispatch);
    cli::add_version_command(app, dispatch, version);
    cli::add_completion_command(app, dispatch);
    cli::add_man_command(app, dispatch);
    cli::add_docs_command(app, dispatch);

    if (auto error = cli::unknown_command_error(app, argc, argv)) {
        std::cerr << "cuvet: error: " << *error << "\n";
        return cli::exit_usage;
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::Success& e) {  // --help, --version
        return app.exit(e) == 0 ? cli::exit_ok : cli::exit_usage;
    } catch (const CLI::ParseError& e) {
        std::cerr << "cuvet: error: " << cli::parse_error_line(app, e) << "\n";
        return cli::exit_usage;
    }
    try {
        return dispatch.run ? dispatch.run() : cli::exit_usage;
    } catch (const rules_bundle::BundleRefused& e) {
        std::cerr << "cuvet: error: " << printable(e.what()) << "\n";
        return cli::exit_untrusted;
    } catch (const Error& e) {
        std::cerr << "cuvet: error: " << printable(e.what()) << "\n";
        return cli::exit_code_for(e.kind());
    } catch (const std::bad_alloc&) {
        std::cerr << "cuvet: error: out of memory\n";
        return cli::exit_internal;
    } catch (const std::exception& e) {
        std::cerr << "cuvet: internal error: " << printable(e.what()) << "\n";
        return cli::exit_internal;
    }
}
