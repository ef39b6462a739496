// Roots: what the image runs. The ENTRYPOINT/CMD words are split as a shell
// would (dockerfile::shell, which unwraps `sh -c`, `env`, `exec`…), each
// program found as execve would (a '/' is a path from WORKDIR, else PATH).
#include "roots.hpp"

#include <set>

#include "cuvet/core/error.hpp"
#include "cuvet/dockerfile/shell.hpp"

namespace cuvet::validate {

namespace {

constexpr std::string_view default_path = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

bool starts_with(std::string_view s, std::string_view head) { return s.substr(0, head.size()) == head; }

std::string_view base_name(std::string_view path) {
    auto slash = path.rfind('/');
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

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
        if (!out.empty()) out += ' ';
        out += w;
        if (out.size() > max_chars) return out.substr(0, max_chars) + "…";
    }
    return out;
}

std::string env_value(const std::vector<std::string>& env, std::string_view key) {
    for (const auto& kv : env)
        if (kv.size() > key.size() && starts_with(kv, key) && kv[key.size()] == '=') return kv.substr(key.size() + 1);
    return "";
}

std::string from_workdir(const std::string& word, const std::string& working_dir) {
    if (word.empty() || word[0] == '/') return word;
    std::string dir = working_dir.empty() ? "/" : working_dir;
    if (dir.back() != '/') dir += '/';
    auto path = dir + (starts_with(word, "./") ? word.substr(2) : word);
    return path;
}

bool is_interpreter_name(std::string_view name) {
    if (name == "node" || name == "ruby" || name == "perl" || name == "java" || name == "julia") return true;
    if (!starts_with(name, "python")) return false;
    for (char c : name.substr(6))
        if (!(c >= '0' && c <= '9') && c != '.') return false;
    return true;
}

// `python -m pkg.mod`: "pkg".
std::string python_module(const std::vector<std::string>& words) {
    if (words.empty() || !starts_with(base_name(words[0]), "python")) return "";
    for (std::size_t i = 1; i + 1 < words.size(); ++i) {
        if (words[i] == "-m") return words[i + 1].substr(0, words[i + 1].find('.'));
        if (!starts_with(words[i], "-")) break;  // a script: python app.py
    }
    return "";
}

class RootSet {
public:
    explicit RootSet(const inventory::Analysis& analysis) : analysis_(analysis), files_(analysis.files()) {}

    // Adds `path` when it is an ELF file the scan read; true when it is one.
    bool add(const std::string& path, const std::string& label) {
        const auto* entry = files_.data_entry(path);
        if (entry == nullptr || analysis_.elfs.find(entry->path) == analysis_.elfs.end()) return false;
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
        for (const auto& dir : split(path_var.empty() ? default_path : std::string_view(path_var), ':')) {
            auto candidate = (dir.empty() ? std::string(".") : dir) + "/" + word;
            candidate = from_workdir(candidate, analysis_.info.config.working_dir);
            if (files_.data_entry(candidate)) return candidate;
        }
        return "";
    }

    std::vector<checks::Root> take() { return std::move(roots_); }
    const inventory::Analysis& analysis() const { return analysis_; }

private:
    const inventory::Analysis& analysis_;
    loader::ImageFiles files_;
    std::set<std::string> seen_;
    std::vector<checks::Root> roots_;
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
        if (slash == std::string_view::npos) top = top.substr(0, top.find('.'));  // _cffi_backend.cpython-311-….so
        return std::string(top);
    }
    return "";
}

// A module `import` can load: a `*.so` of a package, not a library a wheel
// bundles for others (nvidia/*/lib, auditwheel's <pkg>.libs) nor a versioned soname.
bool is_extension_module(std::string_view path) {
    if (!path.ends_with(".so")) return false;
    auto top = top_module(path);
    if (top.empty() || top == "nvidia") return false;
    return path.find(".libs/") == std::string_view::npos;
}

void add_entry_programs(RootSet& roots, const std::vector<std::string>& argv, const std::string& kind) {
    if (argv.empty()) return;
    const auto& config = roots.analysis().info.config;
    // The program execve starts (a shell for the shell form), then what it runs.
    if (auto path = roots.find_program(argv[0]); !path.empty()) roots.add(path, kind + " " + join(argv));
    std::vector<dockerfile::shell::Command> commands;
    try {
        commands = dockerfile::shell::split_argv(argv, [&](std::string_view name) -> std::optional<std::string> {
            auto value = env_value(config.env, name);
            if (value.empty()) return std::nullopt;
            return value;
        });
    } catch (const Error&) {
        return;  // unbalanced quotes: the shell itself fails; nothing more runs
    }
    for (const auto& command : commands) {
        if (command.words.empty()) continue;
        const auto label = kind + " " + join(command.words);
        auto program = roots.find_program(command.words[0]);
        if (!program.empty()) roots.add(program, label);
        auto module = python_module(command.words);
        if (module.empty()) continue;
        for (const auto& [path, elf] : roots.analysis().elfs)
            if (is_extension_module(path) && top_module(path) == module) roots.add(path, label);
    }
}

}  // namespace

std::vector<std::string> entry_program_paths(const image::ImageConfig& config) {
    std::vector<std::string> out;
    for (const auto* argv : {&config.entrypoint, &config.cmd})
        for (const auto& word : *argv)
            if (word.find('/') != std::string::npos && word.find(' ') == std::string::npos && word.find('=') == std::string::npos)
                out.push_back(from_workdir(word, config.working_dir));
    return out;
}

std::vector<checks::Root> find_roots(const inventory::Analysis& analysis,
                                     const std::vector<checks::FrameworkInstall>& frameworks) {
    RootSet roots(analysis);
    const auto& config = analysis.info.config;
    if (!config.entrypoint.empty()) {
        std::vector<std::string> argv = config.entrypoint;
        argv.insert(argv.end(), config.cmd.begin(), config.cmd.end());
        add_entry_programs(roots, argv, "ENTRYPOINT");
        // An entrypoint script usually ends in `exec "$@"`: the CMD runs too.
        add_entry_programs(roots, config.cmd, "CMD");
    } else {
        add_entry_programs(roots, config.cmd, "CMD");
    }
    for (const auto& fw : frameworks) {
        const std::string label = "imported by " + std::string(base_name(fw.root));
        for (const auto& lib : fw.libraries) roots.add(lib, label);
    }
    for (const auto& [path, elf] : analysis.elfs)
        if (is_extension_module(path)) roots.add(path, "imported by " + top_module(path));
    auto path_var = env_value(config.env, "PATH");
    for (const auto& dir : split(path_var.empty() ? default_path : std::string_view(path_var), ':')) {
        if (dir.empty() || dir[0] != '/') continue;
        const std::string prefix = dir.back() == '/' ? dir : dir + "/";
        const auto& entries = analysis.tree.entries();
        for (auto it = entries.lower_bound(prefix); it != entries.end() && starts_with(it->first, prefix); ++it) {
            auto rest = std::string_view(it->first).substr(prefix.size());
            if (rest.find('/') != std::string_view::npos || !is_interpreter_name(rest)) continue;
            roots.add(it->first, it->first + " on PATH");
        }
    }
    return roots.take();
}

}  // namespace cuvet::validate
