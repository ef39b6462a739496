#include "entry_start.hpp"

#include <cstdio>

#include "image_user.hpp"

namespace cuvet::validate {

namespace {

// exec.LookPath: the first PATH entry holding a non-directory with any x bit.
std::string look_path(const std::string& name, const image::ImageConfig& config,
                      const image::FileTree& tree) {
    std::string path_var(default_path);
    for (const auto& kv : config.env)
        if (kv.starts_with("PATH=")) {
            path_var = kv.substr(5);
            break;
        }
    std::size_t at = 0;
    while (at <= path_var.size()) {
        auto colon = path_var.find(':', at);
        if (colon == std::string::npos) colon = path_var.size();
        std::string dir = path_var.substr(at, colon - at);
        at = colon + 1;
        auto candidate = from_workdir((dir.empty() ? "." : dir) + "/" + name, config.working_dir);
        auto found = tree.resolve(image::normalize_path(candidate, true));
        if (found.status != image::Resolution::Status::ok) continue;
        const auto* entry = found.entry->type == image::FileType::hardlink
                                ? tree.data_entry(*found.entry)
                                : found.entry;
        if (entry != nullptr && entry->type != image::FileType::directory &&
            (entry->mode & 0111) != 0)
            return candidate;
    }
    return "";
}

// The interpreter a "#!" line names, or "".
std::string shebang(const std::string& text) {
    if (!text.starts_with("#!")) return "";
    auto line = text.substr(
        2, text.find('\n') == std::string::npos ? std::string::npos : text.find('\n') - 2);
    auto start = line.find_first_not_of(" \t");
    if (start == std::string::npos) return "";
    auto end = line.find_first_of(" \t\r", start);
    return line.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

// Why execve of `path` fails for `user`, or "" when it starts (`depth`: a "#!" interpreter).
std::string exec_problem(const std::string& path, const ImageUser& user,
                         const inventory::Analysis& analysis, int depth) {
    const auto& tree = analysis.tree;
    auto found = tree.resolve(image::normalize_path(path, true));
    if (found.status == image::Resolution::Status::loop)
        return path + " is a loop of symbolic links";
    if (found.status != image::Resolution::Status::ok) return path + " is not in the image";
    const auto* entry = found.entry->type == image::FileType::hardlink
                            ? tree.data_entry(*found.entry)
                            : found.entry;
    if (entry == nullptr) return path + " is a hard link to nothing";
    const std::string owner = " " + owner_and_mode(*entry);
    const std::string who = user.spec.empty() ? "root" : "USER " + user.spec;
    if (entry->type == image::FileType::directory) return path + " is a directory";
    if (entry->type != image::FileType::regular) return path + " is not a regular file";
    if (auto dir = unsearchable_parent(user, tree, entry->path); !dir.empty())
        return who + " cannot search " + dir + ", which holds " + path;
    if (!permits(user, *entry, 01)) return path + " is not executable for " + who + owner;
    const auto files = analysis.files();
    const std::string* text = files.text(entry->path);
    if (text == nullptr || depth > 0) return "";
    auto interpreter = shebang(*text);
    if (interpreter.empty()) return "";
    // The kernel runs the interpreter on the script, which it must then be able to read.
    if (!permits(user, *entry, 04)) return path + " is not readable for " + who + owner;
    if (interpreter[0] != '/') return path + "'s \"#!" + interpreter + "\" is not an absolute path";
    if (auto problem = exec_problem(interpreter, user, analysis, depth + 1); !problem.empty())
        return path + " starts with \"#!" + interpreter + "\", and " + problem;
    return "";
}

}  // namespace

std::string from_workdir(const std::string& word, const std::string& working_dir) {
    if (word.empty() || word[0] == '/') return word;
    std::string dir = working_dir.empty() ? "/" : working_dir;
    if (dir.back() != '/') dir += '/';
    return dir + (word.starts_with("./") ? word.substr(2) : word);
}

stack::EntryStart entry_start(const inventory::Analysis& analysis) {
    const auto& config = analysis.info.config;
    stack::EntryStart out;
    const bool entrypoint = !config.entrypoint.empty();
    const auto& argv = entrypoint ? config.entrypoint : config.cmd;
    if (argv.empty()) return out;  // the image names no program: one comes with `docker run`
    out.source = entrypoint ? "ENTRYPOINT" : "CMD";
    out.program = argv[0];
    const auto user = resolve_user(config.user, analysis.files());
    if (!user.problem.empty()) {
        out.problem = user.problem;
        return out;
    }
    if (out.program.empty()) {
        out.problem = "its program name is empty";
        return out;
    }
    if (out.program.find('/') == std::string::npos) {
        out.path = look_path(out.program, config, analysis.tree);
        if (out.path.empty())
            out.problem = "\"" + out.program +
                          "\" is in no directory of PATH (\"executable file "
                          "not found in $PATH\")";
        else
            out.problem = exec_problem(out.path, user, analysis, 0);
        return out;
    }
    out.path = from_workdir(out.program, config.working_dir);
    out.problem = exec_problem(out.path, user, analysis, 0);
    return out;
}

}  // namespace cuvet::validate
