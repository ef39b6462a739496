// README.md's command table and shared-option list name options; each must be one the
// command's own --help lists, so the README cannot promise an option the CLI lost or renamed.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <regex>
#include <sstream>

#include "support/process.hpp"
#include "support/temp_dir.hpp"

using namespace cuvet;

namespace {

// `cuvet --help`'s subcommands, so a span such as `validate --no-cache` names its command.
std::vector<std::string> subcommands() {
    const std::string help = test::run_cuvet({"--help"}).out;
    std::vector<std::string> names;
    const std::regex row(R"(\n  ([a-z]+) {2,})");
    for (std::sregex_iterator it(help.begin(), help.end(), row), end; it != end; ++it)
        names.push_back((*it)[1]);
    return names;
}

std::string help_of(const std::vector<std::string>& command) {
    static std::map<std::vector<std::string>, std::string> seen;
    auto found = seen.find(command);
    if (found != seen.end()) return found->second;
    auto args = command;
    args.push_back("--help");
    auto result = test::run_cuvet(args);
    INFO("cuvet " << args.front() << " --help: " << result.err);
    CHECK(result.exit_code == 0);
    return seen[command] = result.out;
}

std::vector<std::string> options_in(const std::string& text) {
    std::vector<std::string> options;
    const std::regex option(R"(--[a-z][a-z0-9-]*)");
    for (std::sregex_iterator it(text.begin(), text.end(), option), end; it != end; ++it)
        options.push_back(it->str());
    return options;
}

// The words after `cuvet` up to the first that is not a (sub)command name: `cuvet rules push
// DIR REF` -> {rules, push}.
std::vector<std::string> command_words(std::istringstream& words) {
    std::vector<std::string> command;
    for (std::string word; words >> word && std::regex_match(word, std::regex("[a-z]+"));)
        command.push_back(word);
    return command;
}

void check_option(const std::vector<std::string>& command, const std::string& option) {
    std::string name = "cuvet";
    for (const auto& word : command) name += " " + word;
    INFO("README.md names " << option << " for `" << name << "`");
    CHECK(help_of(command).find(option) != std::string::npos);
}

}  // namespace

TEST_CASE("every option README.md's command table names is in that command's --help",
          "[cli][readme]") {
    const auto commands = subcommands();
    REQUIRE(commands.size() >= 10);
    std::istringstream readme(
        test::read_file(std::filesystem::path(CUVET_SOURCE_DIR) / "README.md"));
    int rows = 0;
    int checked = 0;
    for (std::string line; std::getline(readme, line);) {
        if (line.rfind("| `cuvet ", 0) != 0) continue;
        ++rows;
        const std::string first_cell = line.substr(0, line.find(" | "));
        std::vector<std::vector<std::string>> row_commands;
        const std::regex span("`([^`]*)`");
        for (std::sregex_iterator it(first_cell.begin(), first_cell.end(), span), end; it != end;
             ++it) {
            std::istringstream words((*it)[1].str());
            std::string cuvet;
            words >> cuvet;
            row_commands.push_back(command_words(words));
        }
        for (std::sregex_iterator it(line.begin(), line.end(), span), end; it != end; ++it) {
            const std::string text = (*it)[1];
            std::istringstream words(text);
            std::string head;
            words >> head;
            std::vector<std::vector<std::string>> owners;
            if (head == "cuvet") {
                owners.push_back(command_words(words));
            } else if (head.rfind("--", 0) == 0) {
                owners = row_commands;  // `--x` in a row: an option of the row's command
            } else if (std::find(commands.begin(), commands.end(), head) != commands.end()) {
                owners.push_back({head});  // `validate --no-cache`
            } else {
                continue;  // another program's option, such as `cmake --install`
            }
            for (const auto& option : options_in(text)) {
                std::string helps;
                for (const auto& owner : owners) helps += help_of(owner);
                INFO("README.md names " << option << " in `" << text << "`");
                CHECK(helps.find(option) != std::string::npos);
                ++checked;
            }
        }
    }
    CHECK(rows >= 10);
    CHECK(checked >= 10);
}

TEST_CASE("README.md's options shared by image commands are in each one's --help",
          "[cli][readme]") {
    std::istringstream readme(
        test::read_file(std::filesystem::path(CUVET_SOURCE_DIR) / "README.md"));
    std::vector<std::string> shared;
    bool in_list = false;
    for (std::string line; std::getline(readme, line);) {
        if (line.find("Options shared by") != std::string::npos) in_list = true;
        if (!in_list) continue;
        if (line.rfind("- `--", 0) == 0) {
            for (const auto& option : options_in(line)) shared.push_back(option);
        } else if (!shared.empty() && line.empty()) {
            break;
        }
    }
    REQUIRE(shared.size() >= 6);
    for (const char* command : {"validate", "inventory", "freeze", "ldd", "elf", "files", "image"})
        for (const auto& option : shared) check_option({command}, option);
}
