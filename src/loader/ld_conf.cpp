#include "cuvet/loader/ld_conf.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <sstream>

namespace cuvet::loader {

namespace {

std::string parent_dir(const std::string& path) {
    auto slash = path.rfind('/');
    return slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
}

// Files in the image matching a glob, sorted as glob(3) sorts them. Only the
// last component may hold wildcards, which is how every distro writes it.
std::vector<std::string> glob_in_image(const image::FileTree& tree, const std::string& pattern) {
    std::vector<std::string> matches;
    auto dir = parent_dir(pattern);
    auto base = pattern.substr(pattern.rfind('/') + 1);
    std::string prefix = dir == "/" ? "/" : dir + "/";
    // Entries may sit behind a symlinked directory: resolve it first.
    auto resolved = tree.resolve(dir);
    if (resolved.status == image::Resolution::Status::ok) {
        prefix = resolved.path == "/" ? "/" : resolved.path + "/";
    }
    const auto& entries = tree.entries();
    for (auto it = entries.lower_bound(prefix); it != entries.end(); ++it) {
        const auto& path = it->first;
        if (path.compare(0, prefix.size(), prefix) != 0) break;
        auto name = path.substr(prefix.size());
        if (name.empty() || name.find('/') != std::string::npos) continue;
        if (fnmatch(base.c_str(), name.c_str(), FNM_PERIOD) == 0)
            matches.push_back(dir == "/" ? "/" + name : dir + "/" + name);
    }
    std::sort(matches.begin(), matches.end());
    return matches;
}

void read_one(const ImageFiles& files, const std::string& path, LdConf& conf, int depth) {
    if (depth > 16) {
        conf.problems.push_back(path + ": includes nest too deeply (a loop?)");
        return;
    }
    const std::string* text = files.text(path);
    if (text == nullptr) {
        if (files.data_entry(path) != nullptr)
            conf.problems.push_back(path + ": not read by the scan");
        return;
    }
    conf.files_read.push_back(path);
    std::istringstream lines(*text);
    std::string line;
    while (std::getline(lines, line)) {
        line = line.substr(0, line.find('#'));
        std::istringstream words(line);
        std::string word;
        if (!(words >> word)) continue;
        if (word == "include") {
            std::string pattern;
            while (words >> pattern) {
                if (pattern[0] != '/') pattern = parent_dir(path) + "/" + pattern;
                for (const auto& match : glob_in_image(*files.tree, pattern))
                    read_one(files, match, conf, depth + 1);
            }
            continue;
        }
        if (word == "hwcap") continue;  // obsolete, ignored by modern ldconfig
        // One or more dirs; ldconfig splits on white space, ':' and ','.
        std::string rest = word;
        for (std::string more; words >> more;) rest += " " + more;
        std::replace_if(
            rest.begin(), rest.end(), [](char c) { return c == ':' || c == ','; }, ' ');
        std::istringstream dirs(rest);
        for (std::string dir; dirs >> dir;) {
            dir = dir.substr(0, dir.find('='));  // "dir=libc6": an old type suffix
            auto norm = image::normalize_path(dir, true);
            if (norm.empty() || dir[0] != '/') continue;
            bool seen = std::any_of(conf.dirs.begin(), conf.dirs.end(),
                                    [&](const LdConfDir& d) { return d.dir == norm; });
            if (!seen) conf.dirs.push_back({norm, path});
        }
    }
}

}  // namespace

LdConf read_ld_conf(const ImageFiles& files, const std::string& root_conf) {
    LdConf conf;
    if (files.tree != nullptr) read_one(files, root_conf, conf, 0);
    return conf;
}

}  // namespace cuvet::loader
