#include "dst.hpp"

#include <algorithm>
#include <cstdint>
#include <unordered_set>

#include "cuvet/core/scan_limits.hpp"

namespace cuvet::loader::detail {

namespace {

// Length of the token `name` at text[at] ("$" already consumed), 0 if none.
std::size_t match_token(std::string_view text, std::size_t at, std::string_view name) {
    if (at < text.size() && text[at] == '{') {
        if (text.substr(at + 1, name.size()) == name && at + 1 + name.size() < text.size() &&
            text[at + 1 + name.size()] == '}')
            return name.size() + 2;
        return 0;
    }
    if (text.substr(at, name.size()) != name) return 0;
    std::size_t end = at + name.size();
    return end == text.size() || text[end] == '/' ? name.size() : 0;
}

}  // namespace

std::string expand_dst(std::string_view text, const DstValues& values) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '$') {
            out += text[i];
            continue;
        }
        std::size_t len = 0;
        if ((len = match_token(text, i + 1, "ORIGIN")) != 0) {
            out += values.origin;
        } else if ((len = match_token(text, i + 1, "PLATFORM")) != 0) {
            out += values.platform;
        } else if ((len = match_token(text, i + 1, "LIB")) != 0) {
            out += values.lib;
        } else {
            out += '$';
            continue;
        }
        i += len;
    }
    return out;
}

std::vector<std::string> split_search_path(std::string_view list, std::string_view separators,
                                           const DstValues& values) {
    std::vector<std::string> dirs;
    std::unordered_set<std::string> seen;  // duplicates dropped in linear time
    std::uint64_t elements = 0;
    std::size_t start = 0;
    while (start <= list.size()) {
        // An image's LD_LIBRARY_PATH of 300,000 dirs is searched for every
        // needed name: the same cap as DT_RPATH and DT_RUNPATH.
        check_limit(++elements, scan_limits().search_paths, "search-paths",
                    "entries in one search path (LD_LIBRARY_PATH, DT_RPATH or DT_RUNPATH)");
        auto end = list.find_first_of(separators, start);
        if (end == std::string_view::npos) end = list.size();
        std::string dir;
        auto element = list.substr(start, end - start);
        bool keep = true;
        if (!element.empty()) {
            dir = expand_dst(element, values);
            keep = !dir.empty();
            while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
        }
        if (keep && seen.insert(dir).second) dirs.push_back(dir);
        start = end + 1;
    }
    return dirs;
}

std::string origin_of(std::string_view path, std::string_view working_dir) {
    std::string full(path);
    if (full.empty() || full[0] != '/') full = join_dir(working_dir, path);
    auto slash = full.rfind('/');
    if (slash == 0 || slash == std::string::npos) return "/";
    return full.substr(0, slash);
}

std::string join_dir(std::string_view dir, std::string_view name) {
    if (dir.empty()) return std::string(name);
    if (dir.back() == '/') return std::string(dir) + std::string(name);
    return std::string(dir) + "/" + std::string(name);
}

}  // namespace cuvet::loader::detail
