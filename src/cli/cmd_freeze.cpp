// `cuvet freeze IMAGE`: the image's CUDA stack as a lock file (docs/freeze.md).
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>

#include "commands.hpp"
#include "cuvet/core/error.hpp"
#include "output_format.hpp"
#include "stack_lock.hpp"

namespace cuvet::cli {
namespace {

struct FreezeArgs {
    StackArgs stack;
    std::string format;
    std::string output;
};

int run_freeze(const FreezeArgs& args) {
    const auto db = rules::Database::load(
        args.stack.rules_dir.empty() ? std::nullopt
                                     : std::optional<std::filesystem::path>(args.stack.rules_dir));
    const auto lock = lock_of_image(args.stack.image.path, args.stack, db);
    const std::string text =
        args.format == "json" ? lock::to_json(lock).dump(2) + "\n" : lock::to_text(lock);
    if (args.output.empty()) {
        std::cout << text;
        return 0;
    }
    std::ofstream out(args.output, std::ios::binary);
    if (!out) fail_io(args.output + ": cannot write: " + std::strerror(errno));
    if (!(out << text) || !out.flush()) fail_io(args.output + ": write failed");
    return 0;
}

}  // namespace

void add_freeze_command(CLI::App& app, Dispatch& dispatch) {
    auto args = std::make_shared<FreezeArgs>();
    auto* command = app.add_subcommand("freeze",
                                       "the image's CUDA stack as a lock file to commit and "
                                       "compare (cuvet diff, validate --against)");
    args->stack.image.add_to(*command);
    args->stack.image.add_cache_option(*command);
    args->stack.add_stack_options(*command);
    add_format_option(*command, args->format, {"text", "json"});
    command->add_option("--output,-o", args->output, "write the lock to FILE instead of stdout");
    command->callback([args, &dispatch] { dispatch.run = [args] { return run_freeze(*args); }; });
}

}  // namespace cuvet::cli
