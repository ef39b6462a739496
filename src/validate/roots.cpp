// Roots: what the image runs. The ENTRYPOINT/CMD words are split as a shell
// would (dockerfile::shell, which unwraps `sh -c`, `env`, `exec`…), each
// program found as execve would (a '/' is a path from WORKDIR, else PATH).
#include "roots.hpp"

#include <algorithm>
#include <set>

#include "cuvet/core/error.hpp"
#include "cuvet/core/path_text.hpp"
#include "cuvet/core/scan_limits.hpp"
#include "cuvet/dockerfile/shell.hpp"
#include "cuvet/frameworks/framework.hpp"
#include "entry_start.hpp"
#include "script_exports.hpp"

namespace cuvet::validate {

namespace {

std::vector<std::string> split(std::string_view text, char sep) {
    std::vector<std::string> out;
    std::size_t at = 0;
    while (at <= text.size()) {
        auto end = text.find(sep, at);
        if (end == std::string_view::npos) end = text.size();
        out.emplace_back(text.substr(at, end - at));
        at = end + 1;
    }
    return out;
}

std::string join(const std::vector<std::string>& words, std::size_t max_chars = 60) {
    std::string out;
    for (const auto& w : words) {
        if (w == "$@" || w == "$*") continue;  // a script's own arguments say nothing in a label
        if (!out.empty()) out += ' ';
        out += w;
        if (out.size() > max_chars) return out.substr(0, max_chars) + "…";
    }
    return out;
}

std::string env_value(const std::vector<std::string>& env, std::string_view key) {
    for (const auto& kv : env)
        if (kv.size() > key.size() && kv.starts_with(key) && kv[key.size()] == '=')
            return kv.substr(key.size() + 1);
    return "";
}

bool is_interpreter_name(std::string_view name) {
    if (name == "node" || name == "ruby" || name == "perl" || name == "java" || name == "julia")
        return true;
    if (!name.starts_with("python")) return false;
    for (char c : name.substr(6))
        if (!(c >= '0' && c <= '9') && c != '.') return false;
    return true;
}

// `python -m pkg.mod`: "pkg".
// `python3 -u app.py …` → "app.py"; "" for `python -m`, `python -c` or no script.
std::string python_script(const std::vector<std::string>& words) {
    if (words.empty() || !base_name(words[0]).starts_with("python")) return "";
    for (std::size_t i = 1; i < words.size(); ++i) {
        if (words[i] == "-m" || words[i] == "-c") return "";
        if (words[i] == "-W" || words[i] == "-X") {
            ++i;
            continue;
        }
        if (!words[i].starts_with("-")) return words[i];
    }
    return "";
}

// The top-level packages a Python script imports: `import a.b, c as d`, `from e.f import g`
// (any line, as imports in functions and try blocks run too; relative imports are the app's own).
std::vector<std::string> python_imports(std::string_view text) {
    std::vector<std::string> out;
    auto add = [&](std::string_view name) {
        while (!name.empty() && (name.front() == ' ' || name.front() == '(')) name.remove_prefix(1);
        auto end = name.find_first_of(" .,;#()\r");
        std::string top(name.substr(0, end));
        if (!top.empty() && std::find(out.begin(), out.end(), top) == out.end()) out.push_back(top);
    };
    for (const auto& raw : split(text, '\n')) {
        std::string_view line = raw;
        while (!line.empty() && (line.front() == ' ' || line.front() == '\t'))
            line.remove_prefix(1);
        if (line.starts_with("from ")) {
            add(line.substr(5));
        } else if (line.starts_with("import ")) {
            for (const auto& part : split(line.substr(7, line.find('#') == std::string_view::npos
                                                             ? std::string_view::npos
                                                             : line.find('#') - 7),
                                          ','))
                add(part);
        }
    }
    return out;
}

std::string python_module(const std::vector<std::string>& words) {
    if (words.empty() || !base_name(words[0]).starts_with("python")) return "";
    for (std::size_t i = 1; i + 1 < words.size(); ++i) {
        if (words[i] == "-m") return words[i + 1].substr(0, words[i + 1].find('.'));
        if (!words[i].starts_with("-")) break;  // a script: python app.py
    }
    return "";
}

class RootSet {
public:
    explicit RootSet(const inventory::Analysis& analysis)
        : analysis_(analysis), files_(analysis.files()) {}

    // Adds `path` when it is an ELF file the scan read; true when it is one.
    bool add(const std::string& path, const std::string& label) {
        const auto* entry = files_.data_entry(path);
        if (entry == nullptr || analysis_.elfs.find(entry->path) == analysis_.elfs.end())
            return false;
        if (seen_.insert(entry->path).second) roots_.push_back({path, label});
        return true;
    }

    // execve's search: a name with '/' from WORKDIR, else each PATH entry.
    std::string find_program(const std::string& word) const {
        if (word.find('/') != std::string::npos) {
            auto path = from_workdir(word, analysis_.info.config.working_dir);
            return files_.data_entry(path) ? path : "";
        }
        auto path_var = env_value(analysis_.info.config.env, "PATH");
        for (const auto& dir :
             split(path_var.empty() ? default_path : std::string_view(path_var), ':')) {
            auto candidate = (dir.empty() ? std::string(".") : dir) + "/" + word;
            candidate = from_workdir(candidate, analysis_.info.config.working_dir);
            if (files_.data_entry(candidate)) return candidate;
        }
        return "";
    }

    std::vector<stack::Root> take() { return std::move(roots_); }
    const inventory::Analysis& analysis() const { return analysis_; }

private:
    const inventory::Analysis& analysis_;
    loader::ImageFiles files_;
    std::set<std::string> seen_;
    std::vector<stack::Root> roots_;
};

// The site-/dist-packages part of a path and the top-level module it holds:
// ".../site-packages/torch/lib/libtorch.so" → "torch"; "" when not in one.
std::string top_module(std::string_view path) {
    for (std::string_view marker : {"/site-packages/", "/dist-packages/"}) {
        auto at = path.find(marker);
        if (at == std::string_view::npos) continue;
        auto rest = path.substr(at + marker.size());
        auto slash = rest.find('/');
        auto top = rest.substr(0, slash);
        if (slash == std::string_view::npos)
            top = top.substr(0, top.find('.'));  // _cffi_backend.cpython-311-….so
        return std::string(top);
    }
    return "";
}

// Packages nobody imports by name: a framework's `import` loads them itself (its
// Framework::imports besides its module and its install, as JAX's plugins and CuPy's
// backends), so the user knows them by the framework's module.
std::string importer(const std::string& top) {
    for (const auto* framework : frameworks::all()) {
        const auto& imports = framework->imports;
        if (top != framework->module && top != framework->component &&
            std::find(imports.begin(), imports.end(), top) != imports.end())
            return std::string(framework->module);
    }
    return top;
}

bool exports_module_init(const elf::ElfInfo& elf) {
    return std::any_of(elf.exported_symbols.begin(), elf.exported_symbols.end(),
                       [](const std::string& s) { return s.starts_with("PyInit_"); });
}

// A module `import` can load: a `*.so` of a package, not a library a wheel
// bundles for others (nvidia/*/lib, auditwheel's <pkg>.libs, Triton's
// backends/nvidia/lib/cupti/libcupti.so) nor a versioned soname. A lib*.so
// file is a module only when it has CPython's PyInit_ entry (triton/_C/libtriton.so).
bool is_extension_module(std::string_view path, const elf::ElfInfo& elf) {
    if (!path.ends_with(".so")) return false;
    auto top = top_module(path);
    if (top.empty() || top == "nvidia") return false;
    if (base_name(path).starts_with("lib") && !exports_module_init(elf)) return false;
    return path.find(".libs/") == std::string_view::npos;
}

// "MPI" of "MPI.mpich.cpython-312-x86_64-linux-gnu.so" ("" for "MPI.cpython-312-….so" and
// "_C.abi3.so"): a stem with a dot is no name `import` can ask for, only the package's own
// loader opens it, choosing among the files of that stem (mpi4py 4.1: one per MPI ABI).
std::string alternative_stem(std::string_view path) {
    auto name = base_name(path);
    if (!name.ends_with(".so")) return "";
    name.remove_suffix(3);
    auto tag = name.rfind('.');
    if (tag == std::string_view::npos) return "";
    auto suffix = name.substr(tag + 1);
    if (suffix.starts_with("cpython-") || suffix.starts_with("pypy") || suffix == "abi3")
        name = name.substr(0, tag);
    auto dot = name.find('.');
    if (dot == std::string_view::npos || dot == 0) return "";
    return std::string(name.substr(0, dot));
}

// What a container init or user switcher runs: `tini -- cmd`, `gosu user cmd`.
std::vector<std::string> after_init_wrapper(const std::vector<std::string>& words) {
    auto name = base_name(words[0]);
    std::size_t at = 1;
    if (name == "tini" || name == "dumb-init" || name == "catatonit") {
        while (at < words.size() && words[at].starts_with("-")) {
            if (words[at++] == "--") break;
        }
    } else if (name == "gosu" || name == "su-exec") {
        at = 2;  // the user
    } else {
        return {};
    }
    if (at >= words.size()) return {};
    return {words.begin() + static_cast<std::ptrdiff_t>(at), words.end()};
}

bool is_shell_name(std::string_view name) {
    return name == "sh" || name == "bash" || name == "dash" || name == "ash" || name == "zsh" ||
           name == "ksh";
}

// "#!/usr/bin/env -S python3 -u" → {"/usr/bin/env", "-S", "python3", "-u"}; empty without a
// shebang.
std::vector<std::string> shebang_words(std::string_view text) {
    if (text.substr(0, 2) != "#!") return {};
    auto line = text.substr(2, text.find('\n') - 2);
    std::vector<std::string> words;
    for (const auto& w : split(line, ' '))
        for (const auto& piece : split(w, '\t'))
            if (!piece.empty() && piece != "\r")
                words.push_back(piece.back() == '\r' ? piece.substr(0, piece.size() - 1) : piece);
    return words;
}

// The program a shebang names: "/bin/sh", or "python3" behind `/usr/bin/env -S`; "" without one.
std::string shebang_interpreter(std::string_view text) {
    auto words = shebang_words(text);
    if (!words.empty() && base_name(words[0]) == "env") {
        words.erase(words.begin());
        while (!words.empty() && words[0].starts_with("-")) words.erase(words.begin());
    }
    return words.empty() ? "" : words[0];
}

// Follows what the ENTRYPOINT/CMD start: ELF programs become roots; scripts
// the scan kept are read for the programs they run (their interpreter, each
// command, `. file`, `sh file`, `python -m pkg`), a few levels deep.
class EntryWalker {
public:
    EntryWalker(RootSet& roots)
        : roots_(roots), config_(roots.analysis().info.config), files_(roots.analysis().files()) {}

    void walk_argv(const std::vector<std::string>& argv, const std::string& kind) {
        if (argv.empty()) return;
        const auto label = kind + " " + join(argv);
        // The program execve starts (a shell for the shell form), then what it runs.
        if (auto path = roots_.find_program(argv[0]); !path.empty()) run_program(path, label, 0);
        std::vector<dockerfile::shell::Command> commands;
        try {
            commands = dockerfile::shell::split_argv(argv, lookup());
        } catch (const LimitExceeded&) {
            throw;  // a limit ends the run (exit 3); skipping would judge a part unread
        } catch (const Error&) {
            return;  // unbalanced quotes: the shell itself fails; nothing more runs
        }
        for (const auto& command : commands)
            walk_command(command.words, kind + " " + join(command.words), 0);
    }

private:
    static constexpr int max_depth = 4;

    dockerfile::shell::Lookup lookup() const {
        return [this](std::string_view name) -> std::optional<std::string> {
            auto value = env_value(config_.env, name);
            if (value.empty()) return std::nullopt;
            return value;
        };
    }

    void walk_command(const std::vector<std::string>& words, const std::string& label, int depth) {
        if (words.empty() || depth > max_depth) return;
        if ((words[0] == "." || words[0] == "source") && words.size() > 1) {
            run_script(from_workdir(words[1], config_.working_dir), label, depth + 1, true);
            return;
        }
        auto program = roots_.find_program(words[0]);
        if (!program.empty()) run_program(program, label, depth);
        if (auto rest = after_init_wrapper(words); !rest.empty())
            return walk_command(rest, label, depth + 1);
        // `sh /entrypoint.sh`: the shell reads the file (from WORKDIR, never from PATH).
        if (is_shell_name(base_name(words[0])) && words.size() > 1 && !words[1].starts_with("-"))
            run_script(from_workdir(words[1], config_.working_dir), label, depth + 1, true);
        if (auto script = python_script(words); !script.empty())
            run_python(from_workdir(script, config_.working_dir), label, depth + 1);
        auto module = python_module(words);
        if (module.empty()) return;
        for (const auto& [path, elf] : roots_.analysis().elfs)
            if (is_extension_module(path, elf) && top_module(path) == module)
                roots_.add(path, label);
    }

    // A Python script's imports: every ELF file of an imported package (its extension modules and
    // the libraries they link, as torch/lib) is loaded by this entry.
    void run_python(const std::string& path, const std::string& label, int depth) {
        const auto* text = files_.text(path);
        if (text == nullptr || depth > max_depth) return;
        if (!walked_.insert(files_.data_entry(path)->path).second) return;
        for (const auto& name : python_imports(*text)) {
            // What `import name` loads: the plugins and backends it imports too.
            const auto packages = frameworks::imported_packages(name);
            for (const auto& [file, elf] : roots_.analysis().elfs) {
                auto top = top_module(file);
                if (top.empty() ||
                    std::find(packages.begin(), packages.end(), top) == packages.end())
                    continue;
                roots_.add(file, label + " → import " + name);
            }
        }
    }

    void run_program(const std::string& path, const std::string& label, int depth) {
        if (roots_.add(path, label)) return;
        run_script(path, label, depth + 1, false);
    }

    // A script execve runs by its shebang, or one a shell was told to read (`as_shell`).
    void run_script(const std::string& path, const std::string& label, int depth, bool as_shell) {
        const auto* text = files_.text(path);
        if (text == nullptr || depth > max_depth) return;
        if (!walked_.insert(files_.data_entry(path)->path).second) return;
        if (auto interpreter = shebang_interpreter(*text); !interpreter.empty()) {
            auto program = interpreter.find('/') == std::string::npos
                               ? roots_.find_program(interpreter)
                               : interpreter;
            if (!program.empty()) roots_.add(program, label);
            if (base_name(interpreter).starts_with("python")) {
                walked_.erase(files_.data_entry(path)->path);
                return run_python(path, label, depth);
            }
            if (!is_shell_name(base_name(interpreter)))
                return;  // node, perl…: their imports are not followed
            as_shell = true;
        }
        if (!as_shell) return;
        std::vector<dockerfile::shell::Command> commands;
        try {
            commands = dockerfile::shell::split_commands(*text, lookup());
        } catch (const LimitExceeded&) {
            throw;  // a limit ends the run (exit 3); skipping would judge a part unread
        } catch (const Error&) {
            return;  // the shell would fail on the script's syntax
        }
        for (const auto& command : commands)
            if (!command.words.empty())
                walk_command(command.words, label + " → " + join(command.words), depth);
    }

    RootSet& roots_;
    const image::ImageConfig& config_;
    loader::ImageFiles files_;
    std::set<std::string> walked_;
};

}  // namespace

std::vector<std::string> entry_program_paths(const image::ImageConfig& config) {
    std::vector<std::string> out;
    for (const auto* argv : {&config.entrypoint, &config.cmd})
        for (const auto& word : *argv)
            if ((word.find('/') != std::string::npos || word.ends_with(".py")) &&
                word.find(' ') == std::string::npos && word.find('=') == std::string::npos)
                out.push_back(from_workdir(word, config.working_dir));
    return out;
}

std::vector<std::string> entry_program_dirs(const image::ImageConfig& config) {
    std::set<std::string> dirs;
    for (const auto& path : entry_program_paths(config)) {
        auto slash = path.rfind('/');
        dirs.insert(slash == 0 ? "/" : path.substr(0, slash));
    }
    if (!config.working_dir.empty()) {
        auto dir = config.working_dir;
        while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
        dirs.insert(dir);
    }
    return {dirs.begin(), dirs.end()};
}

std::vector<EnvChange> entry_script_env(const inventory::Analysis& analysis) {
    const auto& config = analysis.info.config;
    const auto& argv = config.entrypoint.empty() ? config.cmd : config.entrypoint;
    if (argv.empty()) return {};
    RootSet roots(analysis);
    const auto files = analysis.files();
    // The script execve starts, or the one `sh script` reads.
    std::string script = roots.find_program(argv[0]);
    if (is_shell_name(base_name(argv[0])) && argv.size() > 1 && !argv[1].starts_with("-"))
        script = from_workdir(argv[1], config.working_dir);
    const auto* text = script.empty() ? nullptr : files.text(script);
    if (text == nullptr) return {};
    if (auto interpreter = shebang_interpreter(*text);
        !interpreter.empty() && !is_shell_name(base_name(interpreter)))
        return {};
    std::map<std::string, std::string> env;
    for (const auto& kv : config.env)
        if (auto eq = kv.find('='); eq != std::string::npos)
            env[kv.substr(0, eq)] = kv.substr(eq + 1);
    std::vector<EnvChange> out;
    for (const auto& a : top_level_exports(*text, env))
        out.push_back({a.name, a.value, script + ":" + std::to_string(a.line)});
    return out;
}

std::map<std::string, std::vector<std::string>> alternative_modules(
    const std::vector<stack::Root>& roots) {
    std::map<std::string, std::vector<std::string>> groups;
    for (const auto& root : roots) {
        if (top_module(root.path).empty()) continue;
        auto stem = alternative_stem(root.path);
        if (stem.empty()) continue;
        auto slash = root.path.rfind('/');
        groups[root.path.substr(0, slash + 1) + stem].push_back(root.path);
    }
    return groups;
}

std::vector<stack::Root> find_roots(const inventory::Analysis& analysis,
                                    const std::vector<stack::FrameworkInstall>& frameworks) {
    RootSet roots(analysis);
    const auto& config = analysis.info.config;
    if (!config.entrypoint.empty()) {
        std::vector<std::string> argv = config.entrypoint;
        argv.insert(argv.end(), config.cmd.begin(), config.cmd.end());
        EntryWalker(roots).walk_argv(argv, "ENTRYPOINT");
        // An entrypoint script usually ends in `exec "$@"`: the CMD runs too.
        EntryWalker(roots).walk_argv(config.cmd, "CMD");
    } else {
        EntryWalker(roots).walk_argv(config.cmd, "CMD");
    }
    for (const auto& fw : frameworks) {
        const std::string label = "imported by " + std::string(base_name(fw.root));
        for (const auto& lib : fw.libraries) roots.add(lib, label);
    }
    for (const auto& [path, elf] : analysis.elfs)
        if (is_extension_module(path, elf))
            roots.add(path, "imported by " + importer(top_module(path)));
    auto path_var = env_value(config.env, "PATH");
    for (const auto& dir :
         split(path_var.empty() ? default_path : std::string_view(path_var), ':')) {
        if (dir.empty() || dir[0] != '/') continue;
        const std::string prefix = dir.back() == '/' ? dir : dir + "/";
        const auto& entries = analysis.tree.entries();
        for (auto it = entries.lower_bound(prefix);
             it != entries.end() && it->first.starts_with(prefix); ++it) {
            auto rest = std::string_view(it->first).substr(prefix.size());
            if (rest.find('/') != std::string_view::npos || !is_interpreter_name(rest)) continue;
            roots.add(it->first, it->first + " on PATH");
        }
    }
    return roots.take();
}

}  // namespace cuvet::validate
