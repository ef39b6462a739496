#include "script_exports.hpp"

#include "cuvet/core/error.hpp"
#include "cuvet/core/scan_limits.hpp"
#include "cuvet/dockerfile/shell.hpp"

namespace cuvet::validate {

namespace {

bool is_name(std::string_view s) {
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
    for (char c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
    return true;
}

// Words split at blanks and `;` (quotes ignored: only the compound-command
// keywords matter here, and a quoted "fi" is rare enough).
std::vector<std::string_view> rough_words(std::string_view line) {
    std::vector<std::string_view> out;
    std::size_t at = 0;
    while (at < line.size()) {
        while (at < line.size() && (line[at] == ' ' || line[at] == '\t' || line[at] == ';')) ++at;
        auto end = at;
        while (end < line.size() && line[end] != ' ' && line[end] != '\t' && line[end] != ';')
            ++end;
        if (end > at) out.push_back(line.substr(at, end - at));
        at = end;
    }
    return out;
}

// Compound commands opened minus closed; a function body counts by its braces.
int nesting_change(const std::vector<std::string_view>& words) {
    int change = 0;
    for (auto w : words) {
        if (w.front() == '#') break;
        if (w == "if" || w == "case" || w == "for" || w == "while" || w == "until" || w == "{" ||
            w == "(")
            ++change;
        if (w == "fi" || w == "esac" || w == "done" || w == "}" || w == ")") --change;
    }
    return change;
}

}  // namespace

std::vector<ScriptAssignment> top_level_exports(std::string_view script,
                                                std::map<std::string, std::string>& env) {
    std::vector<ScriptAssignment> out;
    const dockerfile::shell::Lookup lookup =
        [&](std::string_view name) -> std::optional<std::string> {
        auto it = env.find(std::string(name));
        if (it == env.end()) return std::nullopt;
        return it->second;
    };
    int depth = 0, line_no = 0;
    std::string line;
    std::size_t at = 0;
    while (at < script.size()) {
        auto end = script.find('\n', at);
        if (end == std::string_view::npos) end = script.size();
        ++line_no;
        const int first_line = line_no;
        line.assign(script.substr(at, end - at));
        at = end + 1;
        while (!line.empty() && line.back() == '\\' &&
               at < script.size()) {  // continued on the next line
            line.pop_back();
            end = script.find('\n', at);
            if (end == std::string_view::npos) end = script.size();
            line.append(script.substr(at, end - at));
            at = end + 1;
            ++line_no;
        }
        const auto words = rough_words(line);
        if (words.empty() || words[0].front() == '#') continue;
        const int before = depth;
        depth = std::max(0, depth + nesting_change(words));
        if (before != 0 || depth != 0) continue;
        if (words[0] == "exec") break;  // the script is replaced; nothing after it runs
        const bool exported = words[0] == "export";
        if (!exported && (words.size() != 1 || words[0].find('=') == std::string_view::npos))
            continue;
        if (line.find("$(") != std::string::npos || line.find('`') != std::string::npos) continue;
        std::vector<std::string> assignments;
        try {
            auto text = std::string_view(line);
            text.remove_prefix(text.find(words[0]) + (exported ? words[0].size() : 0));
            assignments = dockerfile::shell::expand_words(text, lookup);
        } catch (const LimitExceeded&) {
            throw;  // a limit ends the run (exit 3); skipping would judge a part unread
        } catch (const Error&) {
            continue;  // unbalanced quotes: the shell fails on this line
        }
        for (const auto& word : assignments) {
            auto eq = word.find('=');
            if (eq == std::string::npos || !is_name(std::string_view(word).substr(0, eq))) continue;
            auto name = word.substr(0, eq);
            if (!exported && env.find(name) == env.end())
                continue;  // a shell variable the workload never sees
            env[name] = word.substr(eq + 1);
            out.push_back({name, word.substr(eq + 1), first_line});
        }
    }
    return out;
}

}  // namespace cuvet::validate
