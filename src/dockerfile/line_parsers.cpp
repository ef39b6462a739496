#include "dockerfile/line_parsers.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "dockerfile/go_text.hpp"

namespace cuvet::dockerfile::detail {
namespace {

// Words separated by white space; quotes and escapes stay in the word (they
// are removed later, during substitution), but they decide where words end.
std::vector<std::string> parse_words(std::string_view rest, char escape) {
    std::vector<std::string> words;
    std::string word;
    bool in_word = false, blank_ok = false;
    char32_t quote = 0;
    std::size_t pos = 0;
    auto finish = [&] {
        if (blank_ok || !word.empty()) words.push_back(word);
        word.clear();
        blank_ok = false;
        in_word = false;
    };
    while (pos < rest.size()) {
        go::Rune r = go::decode_rune(rest, pos);
        if (!in_word && quote == 0) {
            if (go::is_space(r.value)) {
                pos += r.width;
                continue;
            }
            in_word = true;
        }
        if (quote == 0) {
            if (go::is_space(r.value)) {
                finish();
                pos += r.width;
                continue;
            }
            if (r.value == '\'' || r.value == '"') {
                quote = r.value;
                blank_ok = true;
            } else if (r.value == static_cast<unsigned char>(escape)) {
                if (pos + r.width == rest.size()) {
                    pos += r.width;  // a lone escape at the end is dropped
                    continue;
                }
                go::append_rune(word, r.value);
                pos += r.width;
                r = go::decode_rune(rest, pos);
            }
            go::append_rune(word, r.value);
            pos += r.width;
            continue;
        }
        // Inside quotes: the escape protects the next rune, except in '…'.
        if (r.value == quote) {
            quote = 0;
        } else if (r.value == static_cast<unsigned char>(escape) && quote != '\'') {
            if (pos + r.width == rest.size()) {
                quote = 0;
                pos += r.width;
                continue;
            }
            go::append_rune(word, r.value);
            pos += r.width;
            r = go::decode_rune(rest, pos);
        }
        go::append_rune(word, r.value);
        pos += r.width;
    }
    if (in_word || quote != 0) finish();
    return words;
}

// Splits on runs of [\t\v\f\r ], like BuildKit's reWhitespace.
std::vector<std::string> split_blanks(std::string_view rest, std::size_t limit) {
    std::vector<std::string> parts;
    std::size_t start = 0, pos = 0;
    while (pos < rest.size()) {
        if (go::is_blank(rest[pos]) && (limit == 0 || parts.size() + 1 < limit)) {
            std::size_t end = pos;
            while (pos < rest.size() && go::is_blank(rest[pos])) ++pos;
            parts.emplace_back(rest.substr(start, end - start));
            start = pos;
            continue;
        }
        ++pos;
    }
    parts.emplace_back(rest.substr(start));
    return parts;
}

void parse_name_val(std::string_view rest, std::string_view keyword, char escape,
                    Instruction& out) {
    auto words = parse_words(rest, escape);
    if (words.empty()) return;
    if (words[0].find('=') == std::string::npos) {
        auto parts = split_blanks(rest, 2);
        if (parts.size() < 2) throw SyntaxError(std::string(keyword) + " must have two arguments");
        out.args = {parts[0], parts[1], ""};
        return;
    }
    for (const auto& word : words) {
        auto eq = word.find('=');
        if (eq == std::string::npos) {
            throw SyntaxError("Syntax error - can't find = in " + go::quote(word) +
                              ". Must be of the form: name=value");
        }
        out.args.push_back(word.substr(0, eq));
        out.args.push_back(word.substr(eq + 1));
        out.args.push_back("=");
    }
}

enum class JsonResult { array, not_json };

// A JSON array of strings → its strings. Valid JSON holding anything but
// strings is an error (docker refuses it); invalid JSON means shell form.
JsonResult parse_json_array(std::string_view rest, Instruction& out) {
    rest = go::trim_left_space(rest);
    if (rest.empty() || rest.front() != '[') return JsonResult::not_json;
    auto value = nlohmann::json::parse(rest.begin(), rest.end(), nullptr, false);
    if (value.is_discarded() || !value.is_array()) return JsonResult::not_json;
    for (const auto& item : value) {
        if (!item.is_string()) {
            throw SyntaxError(
                "when using JSON array syntax, arrays must be comprised of strings only");
        }
        out.args.push_back(item.get<std::string>());
    }
    out.json = true;
    return JsonResult::array;
}

void parse_maybe_json(std::string_view rest, Instruction& out) {
    if (rest.empty()) return;
    if (parse_json_array(rest, out) == JsonResult::array) return;
    out.args.emplace_back(rest);
}

void parse_maybe_json_to_list(std::string_view rest, Instruction& out) {
    if (parse_json_array(rest, out) == JsonResult::array) return;
    if (!rest.empty()) out.args = split_blanks(rest, 0);
}

void parse_health_config(std::string_view rest, Instruction& out) {
    std::size_t sep = 0;
    while (sep < rest.size() && !go::is_space_byte(rest[sep])) ++sep;
    std::size_t next = sep;
    while (next < rest.size() && go::is_space_byte(rest[next])) ++next;
    if (sep == 0) return;
    out.args.emplace_back(rest.substr(0, sep));
    parse_maybe_json(rest.substr(next), out);
}

// Leading `--name[=value]` words. BuildKit reads these byte by byte, widening
// each byte to a rune, so non-ASCII bytes in flags come out Latin-1 decoded.
std::string_view extract_flags(std::string_view line, std::vector<std::string>& flags) {
    std::string word;
    bool in_word = false, blank_ok = false;
    char quote = 0;
    for (std::size_t pos = 0; pos <= line.size(); ++pos) {
        const bool at_end = pos == line.size();
        const unsigned char ch = at_end ? 0 : static_cast<unsigned char>(line[pos]);
        if (!in_word && quote == 0) {
            if (at_end) break;
            if (go::is_space_byte(ch)) continue;
            if (ch != '-' || pos + 1 == line.size() || line[pos + 1] != '-') {
                return line.substr(pos);
            }
            in_word = true;
        }
        if (at_end) {
            if (word != "--" && (blank_ok || !word.empty())) flags.push_back(word);
            break;
        }
        if (quote == 0) {
            if (go::is_space_byte(ch)) {
                in_word = false;
                if (word == "--") return line.substr(pos);
                if (blank_ok || !word.empty()) flags.push_back(word);
                word.clear();
                blank_ok = false;
                continue;
            }
            if (ch == '\'' || ch == '"') {
                quote = static_cast<char>(ch);
                blank_ok = true;
                continue;
            }
        } else if (ch == static_cast<unsigned char>(quote)) {
            quote = 0;
            continue;
        }
        unsigned char emit = ch;
        if (ch == '\\') {
            if (pos + 1 == line.size()) {
                quote = 0;
                continue;
            }
            emit = static_cast<unsigned char>(line[++pos]);
        }
        go::append_rune(word, emit);
    }
    return {};
}

}  // namespace

void parse_logical_line(std::string_view line, char escape, Instruction& out) {
    std::string_view trimmed = go::trim_space(line);
    std::size_t cut = 0;
    while (cut < trimmed.size() && !go::is_blank(trimmed[cut])) ++cut;
    std::string_view keyword = trimmed.substr(0, cut);
    std::string_view rest;
    if (cut < trimmed.size()) {
        std::size_t start = cut;
        while (start < trimmed.size() && go::is_blank(trimmed[start])) ++start;
        rest = go::trim_space(extract_flags(trimmed.substr(start), out.flags));
    }
    out.keyword.clear();
    for (char c : keyword) out.keyword += static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
    out.original = std::string(line);
    const std::string& k = out.keyword;
    if (k == "add" || k == "copy" || k == "volume") {
        parse_maybe_json_to_list(rest, out);
    } else if (k == "arg") {
        out.args = parse_words(rest, escape);
    } else if (k == "cmd" || k == "entrypoint" || k == "run" || k == "shell") {
        parse_maybe_json(rest, out);
    } else if (k == "env" || k == "label") {
        parse_name_val(rest, k == "env" ? "ENV" : "LABEL", escape, out);
    } else if (k == "expose" || k == "from") {
        if (!rest.empty()) out.args = split_blanks(rest, 0);
    } else if (k == "healthcheck") {
        parse_health_config(rest, out);
    } else if (k == "maintainer" || k == "stopsignal" || k == "user" || k == "workdir") {
        if (!rest.empty()) out.args.emplace_back(rest);
    } else if (k == "onbuild") {
        if (!rest.empty()) {
            out.onbuild.emplace_back();
            parse_logical_line(rest, escape, out.onbuild.back());
        }
    } else {
        // Unknown instructions parse (BuildKit defers the error to the
        // instruction layer); the empty value mirrors its dump.
        out.args.emplace_back();
    }
}

std::vector<std::string> heredoc_candidate_words(std::string_view line) {
    std::vector<std::string> words;
    std::string word;
    bool have_word = false;
    char quote = 0;
    for (std::size_t pos = 0; pos < line.size(); ++pos) {
        const char c = line[pos];
        if (quote != 0) {
            word += c;
            if (c == '\\' && quote == '"' && pos + 1 < line.size())
                word += line[++pos];
            else if (c == quote)
                quote = 0;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            if (have_word) words.push_back(std::move(word));
            word.clear();
            have_word = false;
            continue;
        }
        have_word = true;
        word += c;
        if (c == '\\' && pos + 1 < line.size())
            word += line[++pos];
        else if (c == '\'' || c == '"')
            quote = c;
    }
    if (quote != 0) return {};
    if (have_word) words.push_back(std::move(word));
    return words;
}

bool parse_heredoc_marker(std::string_view word, Heredoc& out) {
    std::size_t pos = 0;
    while (pos < word.size() && word[pos] >= '0' && word[pos] <= '9') ++pos;
    if (word.substr(pos, 2) != "<<") return false;
    std::string_view digits = word.substr(0, pos);
    pos += 2;
    bool chomp = false;
    if (pos < word.size() && word[pos] == '-') chomp = true, ++pos;
    std::string_view rest = word.substr(pos);
    if (rest.empty() || rest.find('<') != std::string_view::npos) return false;
    // Unquote: the terminator is the word without quotes; any quoting turns
    // off expansion of the body, as in sh.
    std::string name;
    bool quoted = false;
    char quote = 0;
    for (std::size_t i = 0; i < rest.size(); ++i) {
        const char c = rest[i];
        if (quote != 0) {
            if (c == quote)
                quote = 0;
            else if (c == '\\' && quote == '"' && i + 1 < rest.size())
                name += rest[++i];
            else
                name += c;
        } else if (c == '\'' || c == '"') {
            quote = c;
            quoted = true;
        } else if (c == '\\' && i + 1 < rest.size()) {
            name += rest[++i];
        } else {
            name += c;
        }
    }
    if (quote != 0 || name.empty()) return false;
    out = Heredoc{};
    out.name = std::move(name);
    out.chomp = chomp;
    out.expand = !quoted;
    out.fd = 0;
    for (char d : digits) out.fd = std::min(out.fd * 10 + (d - '0'), 1000000);
    return true;
}

}  // namespace cuvet::dockerfile::detail
