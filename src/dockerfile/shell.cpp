// One lexer for both uses (see shell.hpp). Script mode adds what only sh
// has: operators, comments, redirections, field splitting of unquoted
// expansions and heredoc bodies.
#include "cuvet/dockerfile/shell.hpp"

#include <array>
#include <cctype>
#include <map>

#include "cuvet/core/error.hpp"
#include "cuvet/core/scan_limits.hpp"

namespace cuvet::dockerfile::shell {
namespace {

bool is_name_start(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool is_name_char(char c) { return is_name_start(c) || (c >= '0' && c <= '9'); }
bool is_ifs(char c) { return c == ' ' || c == '\t' || c == '\n'; }

// sh pattern matching for ${VAR#pat} and friends: `*`, `?`, literal otherwise.
bool glob_match(std::string_view pattern, std::string_view text) {
    std::size_t p = 0, t = 0, star = std::string_view::npos, mark = 0;
    while (t < text.size()) {
        if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
            ++p, ++t;
        } else if (p < pattern.size() && pattern[p] == '*') {
            star = p++;
            mark = t;
        } else if (star != std::string_view::npos) {
            p = star + 1;
            t = ++mark;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*') ++p;
    return p == pattern.size();
}

// Pattern operations are quadratic in the value; real values are short, and a
// hostile 64 KB ARG must not stall the linter, so long values pass unchanged.
constexpr std::size_t max_pattern_value = 4096;

std::string remove_affix(const std::string& value, std::string_view pattern, bool prefix,
                         bool longest) {
    if (value.size() > max_pattern_value) return value;
    const std::size_t n = value.size();
    for (std::size_t k = 0; k <= n; ++k) {
        const std::size_t len = longest ? n - k : k;
        std::string_view piece = prefix ? std::string_view(value).substr(0, len)
                                        : std::string_view(value).substr(n - len);
        if (glob_match(pattern, piece))
            return prefix ? value.substr(len) : value.substr(0, n - len);
    }
    return value;
}

std::string replace_pattern(const std::string& value, std::string_view pattern,
                            std::string_view replacement, bool all) {
    if (pattern.empty() || value.size() > max_pattern_value) return value;
    std::string out;
    std::size_t i = 0;
    bool replaced = false;
    while (i < value.size()) {
        std::size_t best = 0;
        if (!replaced || all) {
            for (std::size_t len = value.size() - i; len > 0; --len) {
                if (glob_match(pattern, std::string_view(value).substr(i, len))) {
                    best = len;
                    break;
                }
            }
        }
        if (best > 0) {
            out += replacement;
            i += best;
            replaced = true;
        } else {
            out += value[i++];
        }
    }
    return out;
}

class Lexer {
public:
    Lexer(std::string_view text, const Lookup& lookup, char escape, bool keep_unset, bool script)
        : s_(text), lookup_(lookup), esc_(escape), keep_unset_(keep_unset), script_(script) {}

    // Expands the whole text as one word (Dockerfile mode).
    std::string whole() {
        std::string out;
        while (pos_ < s_.size()) {
            append_unit(out, nullptr);
            check_size(out);
        }
        return out;
    }

    // Reads the fields of one shell word starting at pos_ (script mode).
    void word_fields(std::vector<std::string>& fields) {
        std::string cur;
        bool has = false;
        while (pos_ < s_.size() && !is_word_end(s_[pos_])) {
            std::string piece;
            bool quoted = false;
            const bool unquoted_expansion = s_[pos_] == '$';
            append_unit(piece, &quoted);
            check_size(piece);
            if (unquoted_expansion && !quoted) {
                for (char c : piece) {
                    if (is_ifs(c)) {
                        if (has) fields.push_back(std::move(cur));
                        cur.clear();
                        has = false;
                    } else {
                        cur += c;
                        has = true;
                    }
                }
            } else {
                cur += piece;
                has = has || quoted || !piece.empty();
            }
            check_size(cur);
        }
        if (has) fields.push_back(std::move(cur));
    }

    std::size_t pos() const { return pos_; }
    void set_pos(std::size_t p) { pos_ = p; }
    std::string_view text() const { return s_; }

private:
    bool is_word_end(char c) const {
        return c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' || c == '|' || c == '(' ||
               c == ')' || c == '<' || c == '>';
    }

    [[noreturn]] void fail(const std::string& what) const { throw Error(ErrorKind::input, what); }

    // `A1=${A0}${A0}` doubles a value with every line: 1 KB of Dockerfile
    // would expand to terabytes. Checked after each unit, so a word holds at
    // most the limit and one variable's value (itself within the limit).
    static void check_size(const std::string& text) {
        check_limit(text.size(), scan_limits().expansion_bytes, "expansion-bytes",
                    "bytes in one expanded word");
    }

    // One syntactic unit: a quoted string, an escape, an expansion or a char.
    void append_unit(std::string& out, bool* quoted) {
        const char c = s_[pos_];
        if (c == '\'') {
            if (quoted) *quoted = true;
            std::size_t end = s_.find('\'', pos_ + 1);
            if (end == std::string_view::npos) fail("unbalanced ' quote (no closing ')");
            out.append(s_.substr(pos_ + 1, end - pos_ - 1));
            pos_ = end + 1;
        } else if (c == '"') {
            if (quoted) *quoted = true;
            ++pos_;
            double_quoted(out);
        } else if (c == esc_) {
            ++pos_;
            if (pos_ >= s_.size()) return;
            if (script_ && s_[pos_] == '\n') {
                ++pos_;  // line continuation inside a script
                return;
            }
            out += s_[pos_++];
        } else if (c == '$') {
            out += dollar();
        } else if (c == '`' && script_) {
            out += raw_until_backtick();
        } else {
            out += c;
            ++pos_;
        }
    }

    void double_quoted(std::string& out) {
        while (true) {
            if (pos_ >= s_.size()) fail("unbalanced \" quote (no closing \")");
            const char c = s_[pos_];
            if (c == '"') {
                ++pos_;
                return;
            }
            if (c == '$') {
                out += dollar();
                check_size(out);
                continue;
            }
            if (c == '`' && script_) {
                out += raw_until_backtick();
                continue;
            }
            if (c == esc_ && pos_ + 1 < s_.size()) {
                const char n = s_[pos_ + 1];
                if (n == '"' || n == '$' || n == esc_ || (script_ && n == '`')) {
                    out += n;
                    pos_ += 2;
                    continue;
                }
                if (script_ && n == '\n') {
                    pos_ += 2;
                    continue;
                }
            }
            out += c;
            ++pos_;
        }
    }

    std::string raw_until_backtick() {
        std::size_t end = pos_ + 1;
        while (end < s_.size() && s_[end] != '`') end += s_[end] == '\\' ? 2 : 1;
        if (end >= s_.size()) fail("unbalanced ` (no closing `)");
        std::string raw(s_.substr(pos_, end + 1 - pos_));
        pos_ = end + 1;
        return raw;
    }

    // Text of a `$(…)` / `${…}` body up to its matching close, nesting and
    // quotes respected; pos_ ends after the closer.
    std::string_view balanced(char open, char close) {
        std::size_t start = pos_, depth = 1;
        char quote = 0;
        while (pos_ < s_.size()) {
            const char c = s_[pos_];
            if (quote) {
                if (c == quote)
                    quote = 0;
                else if (c == '\\' && quote == '"')
                    ++pos_;
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == esc_) {
                ++pos_;
            } else if (c == open ||
                       (open == '{' && c == '$' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '{')) {
                if (c == '$') ++pos_;
                ++depth;
            } else if (c == close && --depth == 0) {
                std::string_view body = s_.substr(start, pos_ - start);
                ++pos_;
                return body;
            }
            ++pos_;
        }
        fail(std::string("unterminated $") + open + " (no closing " + close + ")");
    }

    std::optional<std::string> get(std::string_view name) {
        return lookup_ ? lookup_(name) : std::nullopt;
    }

    std::string sub_word(std::string_view text) {
        Lexer inner(text, lookup_, esc_, keep_unset_, false);
        inner.depth_ = depth_ + 1;
        if (inner.depth_ > 32) fail("substitutions nested too deeply");
        return inner.whole();
    }

    std::string dollar() {
        const std::size_t start = pos_;
        ++pos_;
        if (pos_ >= s_.size()) return "$";
        const char c = s_[pos_];
        if (c == '{') {
            ++pos_;
            return braced(start);
        }
        if (c == '\'' && script_) {
            // bash's $'…' (ANSI-C quoting): backslash escapes, ends at an unescaped '.
            std::size_t end = pos_ + 1;
            while (end < s_.size() && s_[end] != '\'') end += s_[end] == '\\' ? 2 : 1;
            if (end >= s_.size()) fail("unbalanced $' quote (no closing ')");
            std::string raw(s_.substr(pos_ + 1, end - pos_ - 1));
            pos_ = end + 1;
            return raw;
        }
        if (c == '(' && script_) {
            ++pos_;
            balanced('(', ')');
            return std::string(s_.substr(start, pos_ - start));
        }
        if (is_name_start(c)) {
            std::size_t end = pos_;
            while (end < s_.size() && is_name_char(s_[end])) ++end;
            std::string_view name = s_.substr(pos_, end - pos_);
            pos_ = end;
            if (auto value = get(name)) return *value;
            return keep_unset_ ? std::string(s_.substr(start, end - start)) : std::string();
        }
        if (script_ && std::string_view("@*#?$!-0123456789").find(c) != std::string_view::npos) {
            ++pos_;
            return std::string(s_.substr(start, 2));
        }
        return "$";
    }

    static std::string substring(const std::optional<std::string>& value, std::string_view spec,
                                 std::string unset) {
        if (!value) return unset;
        auto number = [](std::string_view text) {
            while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
            long n = 0;
            for (char c : text) {
                if (!std::isdigit(static_cast<unsigned char>(c)) || n > 1000000) return -1L;
                n = n * 10 + (c - '0');
            }
            return text.empty() ? -1L : n;
        };
        const auto colon = spec.find(':');
        const long offset = number(spec.substr(0, colon));
        const long length = colon == std::string_view::npos ? static_cast<long>(value->size())
                                                            : number(spec.substr(colon + 1));
        if (offset < 0 || length < 0) return unset;
        if (static_cast<std::size_t>(offset) >= value->size()) return {};
        return value->substr(static_cast<std::size_t>(offset), static_cast<std::size_t>(length));
    }

    std::string braced(std::size_t start) {
        std::string_view body = balanced('{', '}');
        std::string_view original = s_.substr(start, pos_ - start);
        if (body.empty()) fail("bad substitution " + std::string(original));
        // `${#VAR}` (a length), `${1}`, `${@}`: not knowable before run time.
        if (!is_name_start(body[0])) return std::string(original);
        std::size_t n = 0;
        while (n < body.size() && is_name_char(body[n])) ++n;
        if (n == 0) fail("bad substitution " + std::string(original));
        std::string_view name = body.substr(0, n);
        std::string_view rest = body.substr(n);
        auto value = get(name);
        auto unset_text = [&] { return keep_unset_ ? std::string(original) : std::string(); };
        if (rest.empty()) return value ? *value : unset_text();
        const bool colon = rest[0] == ':';
        if (colon) rest.remove_prefix(1);
        if (rest.empty()) fail("bad substitution " + std::string(original));
        // bash's ${VAR:offset[:length]} in a RUN script: the shell evaluates it, not BuildKit.
        if (script_ && colon &&
            (std::isdigit(static_cast<unsigned char>(rest[0])) || rest[0] == ' ')) {
            return substring(value, rest, unset_text());
        }
        if (script_ && std::string_view("-=+?#%/").find(rest[0]) == std::string_view::npos) {
            return std::string(original);  // other bash-only forms (${V^^}, ${V,}): left as written
        }
        const char op = rest[0];
        std::string_view arg = rest.substr(1);
        const bool set = value && (!colon || !value->empty());
        switch (op) {
            case '-':
            case '=':
                return set ? *value : sub_word(arg);
            case '+':
                return set ? sub_word(arg) : std::string();
            case '?':
                return set ? *value : unset_text();
            default:
                break;
        }
        if (colon) fail("bad substitution " + std::string(original));
        if (op == '#' || op == '%') {
            const bool longest = !arg.empty() && arg[0] == op;
            if (longest) arg.remove_prefix(1);
            if (!value) return unset_text();
            return remove_affix(*value, sub_word(arg), op == '#', longest);
        }
        if (op == '/') {
            const bool all = !arg.empty() && arg[0] == '/';
            if (all) arg.remove_prefix(1);
            std::size_t slash = arg.find('/');
            std::string pattern = sub_word(arg.substr(0, slash));
            std::string replacement =
                slash == std::string_view::npos ? std::string() : sub_word(arg.substr(slash + 1));
            if (!value) return unset_text();
            return replace_pattern(*value, pattern, replacement, all);
        }
        fail("bad substitution " + std::string(original));
    }

    std::string_view s_;
    const Lookup& lookup_;
    char esc_;
    bool keep_unset_;
    bool script_;
    std::size_t pos_ = 0;
    int depth_ = 0;
};

constexpr std::array<std::string_view, 17> reserved_words = {
    "if",  "then", "else", "elif", "fi", "do", "done", "while", "until",
    "for", "case", "esac", "{",    "}",  "!",  "time", "in"};

bool is_assignment(const std::string& word) {
    if (word.empty() || !is_name_start(word[0])) return false;
    std::size_t i = 0;
    while (i < word.size() && is_name_char(word[i])) ++i;
    return i < word.size() && word[i] == '=';
}

std::string base_name(const std::string& word) {
    auto slash = word.rfind('/');
    return slash == std::string::npos ? word : word.substr(slash + 1);
}

bool is_shell(const std::string& word) {
    const std::string b = base_name(word);
    return b == "sh" || b == "bash" || b == "dash" || b == "zsh" || b == "ash" || b == "ksh";
}

// Removes what runs *around* a command (assignments, reserved words, sudo,
// env, nohup, …) so that words[0] is the program doing the work.
std::vector<std::string> unwrap(std::vector<std::string> words) {
    std::size_t i = 0;
    while (i < words.size()) {
        const std::string& w = words[i];
        const std::string b = base_name(w);
        bool reserved = false;
        for (auto r : reserved_words) reserved = reserved || w == r;
        if (reserved || is_assignment(w)) {
            ++i;
        } else if (b == "sudo" || b == "env" || b == "nohup" || b == "exec" || b == "command" ||
                   b == "xargs" || b == "stdbuf" || b == "builtin" || b == "nice" || b == "time") {
            ++i;
            while (i < words.size() && (words[i].starts_with("-") || is_assignment(words[i]))) {
                const bool takes_value =
                    (b == "sudo" && (words[i] == "-u" || words[i] == "-g")) ||
                    (b == "nice" && words[i] == "-n") ||
                    (b == "xargs" && (words[i] == "-n" || words[i] == "-I" || words[i] == "-P"));
                i += takes_value ? 2 : 1;
            }
        } else if (b == "timeout") {
            ++i;
            while (i < words.size() && words[i].starts_with("-")) ++i;
            if (i < words.size()) ++i;  // the duration
        } else {
            break;
        }
    }
    words.erase(words.begin(),
                words.begin() + static_cast<std::ptrdiff_t>(std::min(i, words.size())));
    return words;
}

// The script of `sh -c 'script'` / `bash -euxo pipefail -c "script"`, if any.
std::optional<std::string> shell_c_script(const std::vector<std::string>& words) {
    if (words.empty() || !is_shell(words[0])) return std::nullopt;
    for (std::size_t i = 1; i < words.size(); ++i) {
        const std::string& w = words[i];
        if (w.size() < 2 || w[0] != '-' || w[1] == '-') return std::nullopt;
        if (w == "-o" || w == "+o") {
            ++i;
            continue;
        }
        if (w.find('c') != std::string::npos) {
            if (i + 1 < words.size()) return words[i + 1];
            return std::nullopt;
        }
    }
    return std::nullopt;
}

void add_command(std::vector<std::string> words, const Lookup& lookup, int depth,
                 std::vector<Command>& out);

// `PIP="python -m pip install" && $PIP torch`, `export V=1`: a command made only of
// assignments sets shell variables that the rest of the script expands.
void record_assignments(const std::vector<std::string>& words,
                        std::map<std::string, std::string, std::less<>>& variables) {
    std::size_t i = !words.empty() && (words[0] == "export" || words[0] == "local" ||
                                       words[0] == "declare" || words[0] == "readonly")
                        ? 1
                        : 0;
    if (i >= words.size()) return;
    for (std::size_t j = i; j < words.size(); ++j) {
        if (!is_assignment(words[j])) return;
    }
    for (; i < words.size(); ++i) {
        // `A=$A$A` repeated doubles a value each time: real install commands are short.
        if (words[i].size() > 4096) continue;
        const auto eq = words[i].find('=');
        variables[words[i].substr(0, eq)] = words[i].substr(eq + 1);
    }
}

void split_into(std::string_view script, const Lookup& outer, int depth,
                std::vector<Command>& out) {
    if (depth > 8) return;  // sh -c "sh -c \"…\"" nesting beyond this is not real-world
    std::map<std::string, std::string, std::less<>> variables;
    const Lookup lookup = [&](std::string_view name) -> std::optional<std::string> {
        if (auto it = variables.find(name); it != variables.end()) return it->second;
        return outer ? outer(name) : std::nullopt;
    };
    Lexer lexer(script, lookup, '\\', true, true);
    std::vector<std::string> words;
    std::vector<std::string> pending_heredocs;
    auto finish = [&] {
        record_assignments(words, variables);
        add_command(std::move(words), lookup, depth, out);
        words.clear();
    };
    std::string_view s = script;
    while (lexer.pos() < s.size()) {
        std::size_t p = lexer.pos();
        const char c = s[p];
        if (c == ' ' || c == '\t' || c == '\r') {
            lexer.set_pos(p + 1);
        } else if (c == '\\' && p + 1 < s.size() && s[p + 1] == '\n') {
            lexer.set_pos(p + 2);
        } else if (c == '\n') {
            finish();
            p += 1;
            // Heredoc bodies started on this line: skip to their delimiters.
            for (const auto& delimiter : pending_heredocs) {
                while (p < s.size()) {
                    std::size_t nl = s.find('\n', p);
                    std::size_t end = nl == std::string_view::npos ? s.size() : nl;
                    std::string_view line = s.substr(p, end - p);
                    while (!line.empty() && line.front() == '\t') line.remove_prefix(1);
                    p = nl == std::string_view::npos ? s.size() : nl + 1;
                    if (line == delimiter) break;
                }
            }
            pending_heredocs.clear();
            lexer.set_pos(p);
        } else if (c == ';' || c == '&' || c == '|' || c == '(' || c == ')') {
            finish();
            lexer.set_pos(p + 1);
        } else if (c == '#') {
            std::size_t nl = s.find('\n', p);
            lexer.set_pos(nl == std::string_view::npos ? s.size() : nl);
        } else if (c == '<' || c == '>') {
            // A redirection: drop the operator and its target word.
            bool heredoc = s.substr(p, 2) == "<<" && s.substr(p, 3) != "<<<";
            std::size_t q = p;
            while (q < s.size() && (s[q] == '<' || s[q] == '>' || s[q] == '&' || s[q] == '|' ||
                                    (heredoc && s[q] == '-'))) {
                ++q;
            }
            while (q < s.size() && (s[q] == ' ' || s[q] == '\t')) ++q;
            lexer.set_pos(q);
            if (q < s.size() && s[q] != '\n') {
                std::vector<std::string> target;
                lexer.word_fields(target);
                if (heredoc && !target.empty()) pending_heredocs.push_back(target[0]);
            }
        } else {
            std::vector<std::string> fields;
            lexer.word_fields(fields);
            std::size_t after = lexer.pos();
            const bool fd_number = after < s.size() && (s[after] == '<' || s[after] == '>') &&
                                   fields.size() == 1 && !fields[0].empty() &&
                                   fields[0].find_first_not_of("0123456789") == std::string::npos;
            if (!fd_number) {
                for (auto& f : fields) words.push_back(std::move(f));
            }
            if (lexer.pos() == p) lexer.set_pos(p + 1);  // never stall on odd input
        }
    }
    finish();
}

void add_command(std::vector<std::string> words, const Lookup& lookup, int depth,
                 std::vector<Command>& out) {
    auto command = unwrap(std::move(words));
    if (command.empty()) return;
    if (auto inner = shell_c_script(command)) {
        split_into(*inner, lookup, depth + 1, out);
        return;
    }
    out.push_back({std::move(command)});
}

}  // namespace

std::vector<Command> split_argv(const std::vector<std::string>& argv, const Lookup& lookup) {
    std::vector<Command> out;
    add_command(argv, lookup, 0, out);
    return out;
}

std::string expand_word(std::string_view word, const Lookup& lookup, const ExpandOptions& options) {
    Lexer lexer(word, lookup, options.escape, options.keep_unset, false);
    return lexer.whole();
}

std::vector<std::string> expand_words(std::string_view text, const Lookup& lookup,
                                      const ExpandOptions& options) {
    std::vector<std::string> words;
    std::size_t pos = 0;
    while (pos < text.size()) {
        while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t')) ++pos;
        if (pos >= text.size()) break;
        // Find the end of this word: white space outside quotes.
        std::size_t end = pos;
        char quote = 0;
        while (end < text.size()) {
            const char c = text[end];
            if (quote) {
                if (c == quote)
                    quote = 0;
                else if (c == options.escape && quote == '"')
                    ++end;
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == options.escape) {
                ++end;
            } else if (c == ' ' || c == '\t') {
                break;
            }
            ++end;
        }
        end = std::min(end, text.size());
        words.push_back(expand_word(text.substr(pos, end - pos), lookup, options));
        pos = end;
    }
    return words;
}

std::vector<Command> split_commands(std::string_view script, const Lookup& lookup) {
    std::vector<Command> out;
    split_into(script, lookup, 0, out);
    return out;
}

}  // namespace cuvet::dockerfile::shell
