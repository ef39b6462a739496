// `cuvet rules`: every check and every fact table with its data version, all
// generated from the registry and the loaded rules, so docs never drift.
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "cuvet/checks/registry.hpp"
#include "cuvet/rules/database.hpp"
#include "output_format.hpp"

namespace cuvet::cli {
namespace {

struct RulesArgs {
    std::string format;
    std::string rules_dir;
};

int run_rules(const RulesArgs& args) {
    auto db = rules::Database::load(args.rules_dir.empty()
                                        ? std::nullopt
                                        : std::optional<std::filesystem::path>(args.rules_dir));
    auto all = checks::all_checks();
    if (args.format == "json") {
        nlohmann::json out;
        out["checks"] = nlohmann::json::array();
        for (const auto& entry : all) {
            out["checks"].push_back({{"id", entry.info->id},
                                     {"kind", checks::to_string(entry.kind)},
                                     {"severity", report::to_string(entry.info->severity)},
                                     {"name", entry.info->name},
                                     {"title", entry.info->title},
                                     {"implemented", entry.implemented}});
        }
        out["tables"] = nlohmann::json::array();
        for (const auto& table : db.tables()) {
            out["tables"].push_back({{"name", table.name},
                                     {"data_version", table.data_version},
                                     {"data_date", table.data_date},
                                     {"newest", table.newest},
                                     {"origin", table.origin},
                                     {"facts", table.facts},
                                     {"description", table.description}});
        }
        std::cout << out.dump(2) << "\n";
        return 0;
    }
    std::map<checks::CheckKind, std::size_t> count;
    for (const auto& entry : all) ++count[entry.kind];
    std::cout << "Checks (" << count[checks::CheckKind::validate] << " validate, "
              << count[checks::CheckKind::lint] << " lint, " << count[checks::CheckKind::live]
              << " live; `cuvet explain ID` for details)\n";
    for (const auto& entry : all) {
        std::cout << "  " << std::left << std::setw(7) << entry.info->id << " " << std::setw(8)
                  << report::to_string(entry.info->severity) << " " << std::setw(9)
                  << checks::to_string(entry.kind) << entry.info->title
                  << (entry.implemented ? "" : "  [documented, not run yet]") << "\n";
    }
    std::cout << "\nFact tables (rules/SCHEMA.md)\n";
    for (const auto& table : db.tables()) {
        std::cout << "  " << std::left << std::setw(17) << table.name << " " << std::setw(13)
                  << table.data_version << " " << std::right << std::setw(4) << table.facts
                  << " facts  " << table.origin << "\n";
    }
    // How current cuvet is: a release newer than these is judged "unknown", never guessed.
    std::cout << "\nNewest facts\n";
    for (const auto& table : db.tables()) {
        if (table.newest.empty()) continue;
        std::cout << "  " << table.name << ": newest " << table.newest;
        if (!table.data_date.empty()) std::cout << " (data " << table.data_date << ")";
        std::cout << "\n";
    }
    return 0;
}

}  // namespace

void add_rules_command(CLI::App& app, Dispatch& dispatch) {
    auto args = std::make_shared<RulesArgs>();
    CLI::App* command = app.add_subcommand(
        "rules",
        "list every check and fact table with its data version; push and pull signed rules "
        "bundles (docs/rules-bundle.md)");
    command->require_subcommand(0, 1);
    add_format_option(*command, args->format, {"text", "json"});
    command->add_option("--rules-dir", args->rules_dir,
                        "directory of rules/*.json overriding the built-in ones");
    add_rules_bundle_commands(*command, dispatch);
    // Without push/pull, `cuvet rules` lists; a subcommand sets its own run first.
    command->callback([args, command, &dispatch] {
        if (command->get_subcommands().empty()) dispatch.run = [args] { return run_rules(*args); };
    });
}

}  // namespace cuvet::cli
