// The line-level state machine of BuildKit's Dockerfile parser: directives,
// comments, continuation lines, heredoc bodies. Argument syntax per
// instruction is in line_parsers.cpp.
#include "cuvet/dockerfile/parser.hpp"

#include <algorithm>

#include "cuvet/core/error.hpp"
#include "dockerfile/go_text.hpp"
#include "dockerfile/line_parsers.hpp"

namespace cuvet::dockerfile {
namespace {

// docker build reads Dockerfiles with a bufio.Scanner of this token size and
// rejects longer lines; refusing them here keeps lint and build in agreement
// and bounds the work a hostile file can cause.
constexpr std::size_t max_line_bytes = 65535;

class Lines {
public:
    Lines(std::string_view text, const std::string& name) : text_(text), name_(name) {}
    bool next(std::string_view& line) {
        if (pos_ >= text_.size()) return false;
        std::size_t nl = text_.find('\n', pos_);
        std::size_t end = nl == std::string_view::npos ? text_.size() : nl + 1;
        line = text_.substr(pos_, end - pos_);
        pos_ = end;
        ++number_;
        if (line.size() > max_line_bytes + 1 ||
            (line.size() == max_line_bytes + 1 && line.back() != '\n')) {
            throw Error(ErrorKind::input, name_ + ":" + std::to_string(number_) + ": line is " +
                                              std::to_string(line.size()) +
                                              " bytes long; docker build accepts at most " +
                                              std::to_string(max_line_bytes));
        }
        if (line.find('\0') != std::string_view::npos) {
            throw Error(ErrorKind::input, name_ + ":" + std::to_string(number_) +
                                              ": NUL byte: this is not a text Dockerfile");
        }
        return true;
    }
    int number() const { return number_; }

private:
    std::string_view text_;
    const std::string& name_;
    std::size_t pos_ = 0;
    int number_ = 0;
};

std::string_view trim_newline(std::string_view line) {
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
    return line;
}

bool is_comment(std::string_view line) {
    auto t = go::trim_left_space(trim_newline(line));
    return !t.empty() && t.front() == '#';
}

bool re_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'; }

// `# key = value` at the top of the file (before anything else).
struct Directives {
    char escape = '\\';
    std::string syntax;
    bool done = false;
    bool seen_escape = false, seen_syntax = false;

    void consider(std::string_view line) {
        if (done) return;
        std::size_t p = 0;
        if (line.empty() || line[0] != '#') return finish();
        ++p;
        while (p < line.size() && re_space(line[p])) ++p;
        std::size_t key_start = p;
        auto alpha = [](char c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; };
        if (p >= line.size() || !alpha(line[p])) return finish();
        while (p < line.size() && (alpha(line[p]) || (line[p] >= '0' && line[p] <= '9'))) ++p;
        std::string key(line.substr(key_start, p - key_start));
        while (p < line.size() && re_space(line[p])) ++p;
        if (p >= line.size() || line[p] != '=') return finish();
        ++p;
        while (p < line.size() && re_space(line[p])) ++p;
        std::size_t end = line.size();
        while (end > p && re_space(line[end - 1])) --end;
        if (end <= p) return finish();
        std::string value(line.substr(p, end - p));
        std::transform(key.begin(), key.end(), key.begin(),
                       [](char c) { return static_cast<char>(c | 0x20); });
        if (key == "escape") {
            if (seen_escape)
                throw detail::SyntaxError("only one escape parser directive can be used");
            seen_escape = true;
            if (value != "`" && value != "\\") {
                throw detail::SyntaxError("invalid escape token '" + value +
                                          "' does not match ` or \\");
            }
            escape = value[0];
        } else if (key == "syntax") {
            if (seen_syntax)
                throw detail::SyntaxError("only one syntax parser directive can be used");
            seen_syntax = true;
            syntax = value;
        } else {
            finish();
        }
    }
    void finish() { done = true; }
};

// Strips a trailing escape character (plus blanks) that continues the line;
// an escaped escape ("\\") at the end does not continue it.
bool trim_continuation(std::string_view& line, char escape) {
    std::size_t end = line.size();
    while (end > 0 && (line[end - 1] == ' ' || line[end - 1] == '\t')) --end;
    if (end == 0 || line[end - 1] != escape) return false;
    if (end >= 2 && line[end - 2] == escape) return false;
    line = line.substr(0, end - 1);
    return true;
}

std::string location(const std::string& name, int start, int end) {
    std::string where = name + ":" + std::to_string(start);
    if (end > start) where += "-" + std::to_string(end);
    return where;
}

bool can_contain_heredoc(const Instruction& instruction) {
    const Instruction* target = &instruction;
    if (target->keyword == "onbuild" && !target->onbuild.empty()) target = &target->onbuild[0];
    const auto& k = target->keyword;
    return (k == "run" || k == "copy" || k == "add") && !target->json;
}

void read_heredocs(Lines& lines, const std::string& logical, Instruction& instruction,
                   const std::string& name, int start) {
    for (const auto& word : detail::heredoc_candidate_words(logical)) {
        Heredoc doc;
        if (!detail::parse_heredoc_marker(word, doc)) continue;
        bool terminated = false;
        std::string_view raw;
        while (lines.next(raw)) {
            std::string_view candidate = trim_newline(raw);
            if (doc.chomp) {
                while (!candidate.empty() && candidate.front() == '\t') candidate.remove_prefix(1);
            }
            if (candidate == doc.name) {
                terminated = true;
                break;
            }
            doc.content += raw;
        }
        if (!terminated) {
            throw Error(ErrorKind::input, location(name, start, lines.number()) +
                                              ": unterminated heredoc: no line '" + doc.name +
                                              "' closes the <<" + doc.name + " started on line " +
                                              std::to_string(start));
        }
        instruction.heredocs.push_back(std::move(doc));
    }
}

}  // namespace

Dockerfile parse(std::string_view text, const std::string& name) {
    Dockerfile out;
    out.name = name;
    Directives directives;
    Lines lines(text, name);
    std::vector<std::string> pending_comments;
    std::string_view raw;
    bool first = true;
    int start = 0;
    try {
        while (lines.next(raw)) {
            if (first && raw.substr(0, 3) == "\xEF\xBB\xBF") raw.remove_prefix(3);
            first = false;
            std::string_view line = go::trim_left_space(trim_newline(raw));
            start = lines.number();
            directives.consider(line);
            if (!line.empty() && line.front() == '#') {
                std::string text_after(go::trim_space(line.substr(1)));
                out.comments.push_back({start, text_after});
                pending_comments.push_back(std::move(text_after));
                continue;
            }
            bool continues = trim_continuation(line, directives.escape);
            if (!continues && line.empty()) continue;
            std::string logical(line);
            bool empty_continuation = false;
            while (continues && lines.next(raw)) {
                std::string_view next = trim_newline(raw);
                directives.consider(next);
                if (is_comment(raw)) {
                    auto t = go::trim_left_space(next);
                    out.comments.push_back(
                        {lines.number(), std::string(go::trim_space(t.substr(1)))});
                    continue;
                }
                if (go::trim_left_space(next).empty()) {
                    empty_continuation = true;
                    continue;
                }
                continues = trim_continuation(next, directives.escape);
                logical += next;
            }
            if (empty_continuation) {
                out.warnings.push_back(location(name, start, lines.number()) +
                                       ": empty continuation line (will become an error in a "
                                       "future docker release)");
            }
            Instruction instruction;
            detail::parse_logical_line(logical, directives.escape, instruction);
            if (can_contain_heredoc(instruction)) {
                read_heredocs(lines, logical, instruction, name, start);
            }
            instruction.start_line = start;
            instruction.end_line = lines.number();
            instruction.comments = std::move(pending_comments);
            pending_comments.clear();
            out.instructions.push_back(std::move(instruction));
        }
    } catch (const detail::SyntaxError& e) {
        throw Error(ErrorKind::input, location(name, start, lines.number()) + ": " + e.what());
    }
    out.escape = directives.escape;
    out.syntax = directives.syntax;
    if (out.instructions.empty()) {
        throw Error(ErrorKind::input, name + ": file with no instructions");
    }
    return out;
}

std::string dump(const Instruction& instruction) {
    std::string out = instruction.keyword;
    if (!instruction.flags.empty()) {
        out += " [";
        for (std::size_t i = 0; i < instruction.flags.size(); ++i) {
            if (i) out += ' ';
            out += go::quote(instruction.flags[i]);
        }
        out += ']';
    }
    if (!instruction.onbuild.empty()) out += " (" + dump(instruction.onbuild[0]) + ")";
    for (const auto& arg : instruction.args) out += " " + go::quote(arg);
    return out;
}

std::string dump(const Dockerfile& dockerfile) {
    std::string out;
    for (const auto& instruction : dockerfile.instructions) out += "(" + dump(instruction) + ")\n";
    return out;
}

}  // namespace cuvet::dockerfile
