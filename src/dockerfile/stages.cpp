#include "cuvet/dockerfile/stages.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <unordered_map>

#include "cuvet/core/error.hpp"
#include "cuvet/core/scan_limits.hpp"

namespace cuvet::dockerfile {
namespace {

constexpr std::array<std::string_view, 18> known_instructions = {
    "add",    "arg",   "cmd",         "copy",  "entrypoint", "env",
    "expose", "from",  "healthcheck", "label", "maintainer", "onbuild",
    "run",    "shell", "stopsignal",  "user",  "volume",     "workdir"};

std::string lower(std::string text) {
    for (char& c : text) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
    return text;
}

const Variable* find_last(const std::vector<Variable>& vars, std::string_view name) {
    for (auto it = vars.rbegin(); it != vars.rend(); ++it) {
        if (it->name == name) return &*it;
    }
    return nullptr;
}

// BuildKit's automatic platform ARGs, derived from the target platform.
std::map<std::string, std::string> platform_args(const std::string& platform) {
    std::map<std::string, std::string> out;
    std::string os = "linux", arch = "amd64", variant;
    auto first = platform.find('/');
    if (first != std::string::npos) {
        os = platform.substr(0, first);
        auto second = platform.find('/', first + 1);
        arch = platform.substr(
            first + 1, second == std::string::npos ? std::string::npos : second - first - 1);
        if (second != std::string::npos) variant = platform.substr(second + 1);
    }
    for (std::string prefix : {"TARGET", "BUILD"}) {
        out[prefix + "PLATFORM"] = platform;
        out[prefix + "OS"] = os;
        out[prefix + "ARCH"] = arch;
        out[prefix + "VARIANT"] = variant;
    }
    return out;
}

// `python3 - << 'EOF'`: bash reads a heredoc, BuildKit does not (its marker is one word,
// <<EOF or <<'EOF'), so the body's first line becomes the next instruction. Say so when
// that line is the unknown instruction.
std::string spaced_heredoc_hint(const Instruction& previous) {
    const std::string& text = previous.original;
    for (std::size_t at = text.find("<<"); at != std::string::npos; at = text.find("<<", at + 2)) {
        std::size_t next = at + 2;
        if (next < text.size() && text[next] == '-') ++next;
        if (next < text.size() && (text[next] == ' ' || text[next] == '\t') &&
            previous.heredocs.empty()) {
            return " (line " + std::to_string(previous.start_line) +
                   " writes a heredoc as '<< WORD'; BuildKit reads a heredoc only from '<<WORD', "
                   "with no space, so its body is read as instructions)";
        }
    }
    return "";
}

class Analyzer {
public:
    Analyzer(const Dockerfile& df, const AnalyzeOptions& options)
        : df_(df), options_(options), automatic_(platform_args(options.platform)) {}

    Build run() {
        for (std::size_t i = 0; i < df_.instructions.size(); ++i) {
            const Instruction& ins = df_.instructions[i];
            current_ = &ins;
            if (std::find(known_instructions.begin(), known_instructions.end(), ins.keyword) ==
                known_instructions.end()) {
                fail("unknown instruction '" + first_word(ins.original) + "'" +
                     (i > 0 ? spaced_heredoc_hint(df_.instructions[i - 1]) : ""));
            }
            if (ins.keyword == "from") {
                start_stage(ins, i);
                continue;
            }
            if (build_.stages.empty()) {
                if (ins.keyword != "arg") {
                    fail(upper(ins.keyword) + " before the first FROM (only ARG may come first)");
                }
                declare_args(ins, build_.global_args, true);
                continue;
            }
            Stage& stage = build_.stages.back();
            stage.instructions.push_back(i);
            stage.end_line = ins.end_line;
            if (ins.keyword == "arg")
                declare_args(ins, stage.args, false);
            else if (ins.keyword == "env")
                add_env(ins, stage);
            else if (ins.keyword == "run" && !foreign_shell_)
                add_run(ins, i, stage);
            else if (ins.keyword == "shell")
                set_shell(ins);
            else if (ins.keyword == "copy" || ins.keyword == "add")
                add_copy(ins, stage);
        }
        if (build_.stages.empty()) {
            throw Error(ErrorKind::input, df_.name + ": no FROM instruction: nothing is built");
        }
        build_.final_stage = build_.stages.size() - 1;
        if (!options_.target.empty()) {
            auto it = std::find_if(build_.stages.begin(), build_.stages.end(), [&](const Stage& s) {
                return s.name == lower(options_.target);
            });
            if (it == build_.stages.end()) {
                throw Error(ErrorKind::usage,
                            df_.name + ": no stage named '" + options_.target + "'");
            }
            build_.final_stage = it->index;
        }
        return std::move(build_);
    }

private:
    [[noreturn]] void fail(const std::string& message) const {
        std::string where = df_.name + ":" + std::to_string(current_->start_line);
        if (current_->end_line > current_->start_line)
            where += "-" + std::to_string(current_->end_line);
        throw Error(ErrorKind::input, where + ": " + message);
    }

    static std::string upper(std::string text) {
        for (char& c : text) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 32 : c);
        return text;
    }
    static std::string first_word(const std::string& line) {
        std::size_t start = line.find_first_not_of(" \t");
        if (start == std::string::npos) return "";
        std::size_t end = line.find_first_of(" \t", start);
        std::string word = line.substr(
            start, end == std::string::npos ? 40 : std::min<std::size_t>(end - start, 40));
        return word;
    }

    // Lookups: substitution errors carry the instruction's location.
    template <typename F>
    auto located(F&& f) -> decltype(f()) {
        try {
            return f();
        } catch (const Error& e) {
            if (e.kind() != ErrorKind::input) throw;
            fail(e.what());
        }
    }

    shell::Lookup global_lookup() const {
        return [this](std::string_view name) -> std::optional<std::string> {
            if (auto* v = find_last(build_.global_args, name); v && v->has_value) return v->value;
            if (auto it = automatic_.find(std::string(name)); it != automatic_.end())
                return it->second;
            return std::nullopt;
        };
    }

    shell::Lookup stage_lookup(const Stage& stage) const {
        return [&stage](std::string_view name) { return stage.lookup(name); };
    }

    // SHELL ["powershell", …] or ["cmd", "/S", "/C"]: RUN lines are not sh
    // scripts, and reading them as such would report quoting errors that are not.
    void set_shell(const Instruction& ins) {
        if (!ins.json || ins.args.empty()) return;
        std::string program = lower(ins.args[0]);
        auto slash = program.find_last_of("/\\");
        if (slash != std::string::npos) program = program.substr(slash + 1);
        if (program.ends_with(".exe")) program.resize(program.size() - 4);
        foreign_shell_ = program == "powershell" || program == "pwsh" || program == "cmd";
    }

    void start_stage(const Instruction& ins, std::size_t index) {
        foreign_shell_ = false;  // SHELL does not carry across FROM
        Stage stage;
        stage.index = build_.stages.size();
        stage.from_line = ins.start_line;
        stage.end_line = ins.end_line;
        stage.instructions.push_back(index);
        if (ins.args.empty()) fail("FROM requires the name of an image");
        located([&] {
            check_limit(build_.stages.size() + 1, scan_limits().stages, "stages",
                        "build stages (FROM lines)");
        });
        if (ins.args.size() != 1 && !(ins.args.size() == 3 && lower(ins.args[1]) == "as")) {
            fail("FROM takes an image and an optional 'AS name', got " +
                 std::to_string(ins.args.size()) + " words");
        }
        shell::ExpandOptions keep{df_.escape, true};
        auto lookup = global_lookup();
        stage.base = located([&] { return shell::expand_word(ins.args[0], lookup, keep); });
        if (ins.args.size() == 3) stage.name = lower(ins.args[2]);
        for (const auto& flag : ins.flags) {
            if (flag.starts_with("--platform=")) {
                stage.platform =
                    located([&] { return shell::expand_word(flag.substr(11), lookup, keep); });
            }
        }
        // The last earlier stage of that name, found by name: 170k chained
        // stages must not cost 170k² comparisons.
        if (auto it = stage_by_name_.find(lower(stage.base)); it != stage_by_name_.end()) {
            const Stage& earlier = build_.stages[it->second];
            stage.base_stage = earlier.index;
            stage.env = earlier.env;  // ENV is inherited from the parent stage; ARG is not
        }
        if (!stage.name.empty()) stage_by_name_[stage.name] = stage.index;
        build_.stages.push_back(std::move(stage));
    }

    void declare_args(const Instruction& ins, std::vector<Variable>& scope, bool global) {
        for (const auto& word : ins.args) {
            Variable v;
            v.line = ins.start_line;
            auto eq = word.find('=');
            v.name = word.substr(0, eq);
            if (auto it = options_.build_args.find(v.name); it != options_.build_args.end()) {
                v.value = it->second;
                v.has_value = true;
            } else if (eq != std::string::npos) {
                const Stage* stage = global ? nullptr : &build_.stages.back();
                auto lookup = global ? global_lookup() : stage_lookup(*stage);
                v.value = located([&] {
                    return shell::expand_word(word.substr(eq + 1), lookup, {df_.escape, false});
                });
                v.has_value = true;
            } else if (!global) {
                // `ARG X` inside a stage re-imports the global X (or the
                // automatic platform value).
                auto lookup = global_lookup();
                if (auto value = lookup(v.name)) {
                    v.value = *value;
                    v.has_value = true;
                }
            }
            scope.push_back(std::move(v));
        }
    }

    void add_env(const Instruction& ins, Stage& stage) {
        for (std::size_t i = 0; i + 1 < ins.args.size(); i += 3) {
            Variable v;
            v.name = ins.args[i];
            v.line = ins.start_line;
            auto lookup = stage_lookup(stage);
            v.value = located([&] {
                return shell::expand_word(ins.args[i + 1], lookup, {df_.escape, true});
            });
            v.has_value = true;
            // Values of one ENV see the state before it, as in BuildKit.
            pending_.push_back(std::move(v));
        }
        for (auto& v : pending_) stage.env.push_back(std::move(v));
        pending_.clear();
    }

    void add_run(const Instruction& ins, std::size_t index, Stage& stage) {
        RunStep step;
        step.instruction = index;
        step.start_line = ins.start_line;
        step.end_line = ins.end_line;
        auto lookup = stage_lookup(stage);
        located([&] {
            if (ins.json) {
                step.commands = shell::split_argv(ins.args, lookup);
                return 0;
            }
            if (ins.args.empty()) return 0;
            step.commands = shell::split_commands(ins.args[0], lookup);
            // `RUN <<EOF` or `RUN bash <<EOF`: the heredoc is the script.
            const bool script_heredoc =
                step.commands.empty() ||
                (step.commands.size() == 1 && !step.commands[0].words.empty() &&
                 (step.commands[0].words[0].ends_with("sh")) && step.commands[0].words.size() <= 3);
            if (script_heredoc) {
                for (const auto& doc : ins.heredocs) {
                    auto more = shell::split_commands(doc.content, lookup);
                    step.commands.insert(step.commands.end(), more.begin(), more.end());
                }
            }
            return 0;
        });
        stage.runs.push_back(std::move(step));
    }

    void add_copy(const Instruction& ins, Stage& stage) {
        for (const auto& flag : ins.flags) {
            if (!flag.starts_with("--from=")) continue;
            auto lookup = stage_lookup(stage);
            std::string from = located([&] {
                return shell::expand_word(flag.substr(7), lookup, {df_.escape, true});
            });
            CopyFrom copy;
            copy.from = lower(from);
            copy.line = ins.start_line;
            // COPY --from=build ${VIRTUAL_ENV} ${VIRTUAL_ENV}: sources name what they copy
            // only once ARG/ENV are expanded.
            for (std::size_t i = 0; i + 1 < ins.args.size(); ++i) {
                copy.sources.push_back(located([&] {
                    return shell::expand_word(ins.args[i], lookup, {df_.escape, true});
                }));
            }
            stage.copy_from.push_back(std::move(copy));
        }
    }

    const Dockerfile& df_;
    const AnalyzeOptions& options_;
    std::map<std::string, std::string> automatic_;
    const Instruction* current_ = nullptr;
    std::vector<Variable> pending_;
    bool foreign_shell_ = false;
    Build build_;
    std::unordered_map<std::string, std::size_t> stage_by_name_;  // the last stage of each name
};

}  // namespace

std::optional<std::string> Stage::lookup(std::string_view name) const {
    if (auto* v = find_last(env, name)) return v->value;
    if (auto* v = find_last(args, name); v && v->has_value) return v->value;
    return std::nullopt;
}

Build analyze(const Dockerfile& dockerfile, const AnalyzeOptions& options) {
    return Analyzer(dockerfile, options).run();
}

}  // namespace cuvet::dockerfile
