#include "conventions.hpp"

#include <algorithm>
#include <cctype>

namespace cuvet::cli {
namespace {

std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            std::size_t above = row[j];
            row[j] =
                std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

std::vector<std::string> command_names(const CLI::App& app) {
    std::vector<std::string> names;
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
        names.push_back(sub->get_name());
    return names;
}

// The deepest command the user selected: `cuvet cache prune` is prune.
const CLI::App* selected_command(const CLI::App& app) {
    const CLI::App* current = &app;
    for (;;) {
        auto parsed = current->get_subcommands();
        if (parsed.empty()) return current;
        current = parsed.back();
    }
}

std::string command_path(const CLI::App* command) {
    std::string path;
    for (const CLI::App* at = command; at != nullptr; at = at->get_parent())
        path = (at->get_parent() == nullptr ? std::string("cuvet") : at->get_name()) +
               (path.empty() ? "" : " " + path);
    return path;
}

}  // namespace

std::string env_name_for(const std::string& long_name) {
    std::string name = "CUVET_";
    for (char c : long_name)
        name += c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return name;
}

void read_flags_from_env(CLI::App& command) {
    for (CLI::Option* option : command.get_options()) {
        if (option->get_lnames().empty() || option->get_lnames().front() == "help") continue;
        option->envname(env_name_for(option->get_lnames().front()));
        // A list from one variable: CUVET_GPU=H100,A100.
        if (option->get_expected_max() > 1 && option->get_lnames().front() != "env" &&
            option->get_lnames().front() != "build-arg")
            option->delimiter(',');
    }
}

std::optional<std::string> closest_match(const std::string& word,
                                         const std::vector<std::string>& candidates) {
    std::optional<std::string> best;
    std::size_t best_distance = 0;
    for (const auto& candidate : candidates) {
        std::size_t distance = edit_distance(word, candidate);
        if (!best || distance < best_distance) best = candidate, best_distance = distance;
    }
    // Two edits, or a third of the word for long ones: "valdate", "--fial-on", "--formt".
    if (best && best_distance <= std::max<std::size_t>(2, word.size() / 3)) return best;
    return std::nullopt;
}

std::optional<std::string> unknown_command_error(const CLI::App& app, int argc, char** argv) {
    if (argc < 2) return std::nullopt;
    const std::string word = argv[1];
    if (word.empty() || word[0] == '-') return std::nullopt;
    const std::vector<std::string> names = command_names(app);
    if (std::find(names.begin(), names.end(), word) != names.end()) return std::nullopt;
    std::string line = "unknown command '" + word + "'";
    if (auto guess = closest_match(word, names)) return line + "; did you mean '" + *guess + "'?";
    return line + " (cuvet --help lists the commands)";
}

std::string parse_error_line(const CLI::App& app, const CLI::ParseError& error) {
    if (dynamic_cast<const CLI::ExtrasError*>(&error) == nullptr) return error.what();
    const CLI::App* command = selected_command(app);
    std::vector<std::string> extras = app.remaining(true);
    const std::string where = command_path(command);
    for (const std::string& extra : extras) {
        if (extra.size() < 2 || extra[0] != '-') continue;
        const std::string name = extra.substr(0, extra.find('='));
        std::string line = "unknown option '" + name + "' for '" + where + "'";
        std::vector<std::string> options;
        for (const CLI::Option* option : command->get_options()) {
            for (const auto& l : option->get_lnames()) options.push_back("--" + l);
            for (const auto& s : option->get_snames()) options.push_back("-" + s);
        }
        if (auto guess = closest_match(name, options))
            return line + "; did you mean '" + *guess + "'?";
        return line + " (" + where + " --help lists them)";
    }
    std::string line = extras.size() > 1 ? "unexpected arguments for '" + where + "':"
                                         : "unexpected argument for '" + where + "':";
    for (const auto& extra : extras) line += " '" + extra + "'";
    return line;
}

}  // namespace cuvet::cli
