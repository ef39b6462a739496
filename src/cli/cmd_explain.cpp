// `cuvet explain ID`: a check's rationale, a failing and a passing example, and
// the fix, straight from the registry.
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "cuvet/checks/registry.hpp"
#include "cuvet/core/error.hpp"
#include "output_format.hpp"

namespace cuvet::cli {
namespace {

struct ExplainArgs {
    std::string id;
    std::string format;
};

void print_indented(const std::string& text) {
    std::size_t pos = 0;
    while (pos <= text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string::npos) end = text.size();
        std::cout << "    " << text.substr(pos, end - pos) << "\n";
        pos = end + 1;
    }
}

int run_explain(const ExplainArgs& args) {
    const checks::CheckEntry* entry = checks::find_check(args.id);
    if (!entry) fail_usage("unknown check id '" + args.id + "' (`cuvet rules` lists every check)");
    const checks::CheckInfo& info = *entry->info;
    if (args.format == "json") {
        nlohmann::json out = {{"id", info.id},
                              {"name", info.name},
                              {"kind", checks::to_string(entry->kind)},
                              {"severity", report::to_string(info.severity)},
                              {"title", info.title},
                              {"rationale", info.rationale},
                              {"failing_example", info.failing_example},
                              {"passing_example", info.passing_example},
                              {"fix", info.fix},
                              {"implemented", entry->implemented}};
        std::cout << out.dump(2) << "\n";
        return 0;
    }
    std::cout << info.id << " " << info.name << " (" << report::to_string(info.severity) << ")\n";
    std::cout << info.title << "\n\n";
    std::cout << "Why:\n";
    print_indented(info.rationale);
    std::cout << "\nFails:\n";
    print_indented(info.failing_example);
    std::cout << "\nPasses:\n";
    print_indented(info.passing_example);
    std::cout << "\nFix:\n";
    print_indented(info.fix);
    return 0;
}

}  // namespace

void add_explain_command(CLI::App& app, Dispatch& dispatch) {
    auto args = std::make_shared<ExplainArgs>();
    CLI::App* command =
        app.add_subcommand("explain", "explain a check: why, failing and passing example, fix");
    command->add_option("ID", args->id, "check id, e.g. CUV001")->required();
    add_format_option(*command, args->format, {"text", "json"});
    command->callback([args, &dispatch] { dispatch.run = [args] { return run_explain(*args); }; });
}

}  // namespace cuvet::cli
