// `cuvet diff A B`: what changed in the CUDA stack from A to B (images or lock
// files), grouped by what it breaks (docs/freeze.md, "cuvet diff").
#include <iostream>

#include "commands.hpp"
#include "cuvet/core/error.hpp"
#include "cuvet/core/printable.hpp"
#include "exit_codes.hpp"
#include "output_format.hpp"
#include "stack_lock.hpp"

namespace cuvet::cli {
namespace {

struct DiffArgs {
    StackArgs stack;
    std::string other;
    std::string format;
    std::string fail_on = "may-break";
};

std::string text_report(const std::string& a, const std::string& b,
                        const std::vector<lock::Change>& changes) {
    std::string out = "cuvet diff " + a + " → " + b + "\n";
    if (changes.empty()) return out + "no change in the CUDA stack\n";
    for (auto impact : {lock::Impact::breaks, lock::Impact::may_break, lock::Impact::changes}) {
        std::size_t count = 0;
        for (const auto& c : changes) count += c.impact == impact;
        if (count == 0) continue;
        out += std::string(lock::impact_name(impact)) + " (" + std::to_string(count) + "):\n";
        for (const auto& c : changes)
            if (c.impact == impact)
                out += "  " + c.kind + "  " + c.subject + ": " + c.message + "\n";
    }
    return out;
}

int threshold(const std::string& fail_on) {
    if (fail_on == "breaks") return static_cast<int>(lock::Impact::breaks);
    if (fail_on == "may-break") return static_cast<int>(lock::Impact::may_break);
    if (fail_on == "changes") return static_cast<int>(lock::Impact::changes);
    return -1;  // never
}

int run_diff(const DiffArgs& args) {
    const auto db = rules::Database::load(
        args.stack.rules_dir.empty() ? std::nullopt
                                     : std::optional<std::filesystem::path>(args.stack.rules_dir));
    const auto before = lock_of(args.stack.image.path, args.stack, db);
    const auto after = lock_of(args.other, args.stack, db);
    const auto changes = lock::diff(before, after);
    if (args.format == "json") {
        nlohmann::json out = {{"schema", "cuvet-diff/1"},
                              {"before", args.stack.image.path},
                              {"after", args.other},
                              {"changes", lock::to_json(changes)}};
        std::cout << out.dump(2) << "\n";
    } else {
        std::cout << printable_lines(text_report(args.stack.image.path, args.other, changes));
    }
    const int limit = threshold(args.fail_on);
    for (const auto& c : changes)
        if (static_cast<int>(c.impact) <= limit) return exit_findings;
    return exit_ok;
}

}  // namespace

void add_diff_command(CLI::App& app, Dispatch& dispatch) {
    auto args = std::make_shared<DiffArgs>();
    auto* command = app.add_subcommand("diff",
                                       "what changed in the CUDA stack from image (or lock file) A "
                                       "to B, grouped by what it breaks");
    args->stack.image.add_to(*command);
    command->get_option("IMAGE")->description(
        "A: the known-good image or lock file (as for validate, or a cuvet freeze output)");
    command->add_option("B", args->other, "B: the image or lock file compared with A")->required();
    args->stack.image.add_cache_option(*command);
    args->stack.add_stack_options(*command);
    add_format_option(*command, args->format, {"text", "json"});
    command
        ->add_option(
            "--fail-on", args->fail_on,
            "exit 1 when a change is at least: breaks, may-break (default), changes, or never")
        ->check(CLI::IsMember({"breaks", "may-break", "changes", "never"}))
        ->default_str("may-break");
    command->callback([args, &dispatch] { dispatch.run = [args] { return run_diff(*args); }; });
}

}  // namespace cuvet::cli
