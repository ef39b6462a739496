// CUV002 shadowed-library
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "check_util.hpp"
#include "checks.hpp"

namespace cuvet::checks {

namespace cuv002 {

// The dirs a consumer means its CUDA libraries to come from: its own RPATH /
// RUNPATH (after $ORIGIN) and the pip nvidia/*/lib dirs of its framework.
std::vector<std::string> intended_dirs(const Stack& stack, const ElfObject& o) {
    std::vector<std::string> dirs;
    auto origin = util::dir_name(o.file);
    for (const auto* list : {&o.elf->runpath, &o.elf->rpath}) {
        for (auto dir : *list) {
            for (const char* token : {"$ORIGIN", "${ORIGIN}"}) {
                auto at = dir.find(token);
                if (at != std::string::npos)
                    dir.replace(at, std::string_view(token).size(), origin);
            }
            dirs.push_back(dir);
        }
    }
    for (const auto& fw : stack.frameworks)
        if (util::under(o.file, fw.root))
            dirs.insert(dirs.end(), fw.bundled_library_dirs.begin(), fw.bundled_library_dirs.end());
    return dirs;
}

// "/a/b/../c" → "/a/c": RUNPATHs are written relative to $ORIGIN.
std::string normalise(const std::string& path) {
    std::vector<std::string> parts;
    std::size_t at = 0;
    while (at <= path.size()) {
        auto slash = path.find('/', at);
        auto part = path.substr(at, slash == std::string::npos ? std::string::npos : slash - at);
        if (part == "..") {
            if (!parts.empty()) parts.pop_back();
        } else if (!part.empty() && part != ".")
            parts.push_back(part);
        if (slash == std::string::npos) break;
        at = slash + 1;
    }
    std::string out;
    for (const auto& p : parts) out += "/" + p;
    return out.empty() ? "/" : out;
}

// One edge: a consumer's name that resolves to the other copy.
struct Edge {
    const ElfObject* consumer;
    const Resolution* resolution;
    std::string hidden;  // the copy it ships (normalised data path)
};

report::Finding finding_for(const Stack& stack, const std::vector<Edge>& edges) {
    const Edge& first = edges.front();
    const Resolution& r = *first.resolution;
    const auto* won = stack.library(r.file);
    const auto* lost = stack.library(first.hidden);
    const auto hidden_dir = util::dir_name(first.hidden);
    report::Finding f;
    f.message = first.consumer->path + " loads " + r.name + " from " +
                (won ? util::describe(*won) : r.path) + " (found via " + r.how_found() +
                ") instead of the copy it ships, " + (lost ? util::describe(*lost) : first.hidden);
    if (edges.size() > 1) {
        f.message += "; " + std::to_string(edges.size() - 1) + " more load" +
                     (edges.size() == 2 ? "s" : "") + " from " + util::dir_name(r.path) +
                     " instead of " + hidden_dir + ":";
        for (std::size_t i = 1; i < edges.size() && i < 9; ++i)
            f.message += (i == 1 ? " " : ", ") + util::base_name(edges[i].consumer->path) + " → " +
                         edges[i].resolution->name;
        if (edges.size() > 9) f.message += " and " + std::to_string(edges.size() - 9) + " more";
    }
    f.locations = {{first.consumer->path}, {r.path}, {first.hidden}};
    for (const auto& e : edges)
        f.evidence.push_back(e.consumer->path + ": " + e.resolution->name + " → " +
                             e.resolution->path + " (via " + e.resolution->how_found() + "), not " +
                             e.hidden);
    util::add_trace(f, r);
    if (const auto* root = stack.root_of(first.consumer->file)) f.loaded_by = *root;
    if (r.rule == loader::Rule::ld_library_path && r.loaded_by.empty()) {
        auto origin = stack.env_origin.find("LD_LIBRARY_PATH");
        const std::string where = origin != stack.env_origin.end()
                                      ? "`export LD_LIBRARY_PATH` at " + origin->second
                                      : "ENV LD_LIBRARY_PATH in the Dockerfile or the base image";
        f.fix = "Drop " + util::dir_name(r.path) + " from LD_LIBRARY_PATH (" + where +
                "), or remove the other copy, so the framework's own " + hidden_dir + " wins.";
    } else
        f.fix = "Remove the copy in " + util::dir_name(r.path) +
                " (or its ld.so.conf entry) so the framework's " + hidden_dir +
                " wins, or make both copies the same version.";
    return f;
}

std::vector<report::Finding> run(const Stack& stack, const rules::Database&) {
    // Every edge of one pair of directories (the copy that wins, the one shipped) is one finding.
    std::map<std::pair<std::string, std::string>, std::vector<Edge>> by_pair;
    std::vector<std::pair<std::string, std::string>> order;
    for (const auto& o : stack.objects) {
        if (!o.consumer) continue;
        auto dirs = intended_dirs(stack, o);
        for (const auto& r : o.resolutions) {
            if (r.path.empty() || r.shadowed.empty() || stack.library(r.file) == nullptr) continue;
            bool trusted = false;
            for (const auto& t : stack.targets.trusted_dirs)
                trusted = trusted || util::under(r.file, t) || util::under(r.path, t);
            if (trusted) continue;
            for (const auto& hidden : r.shadowed) {
                auto hidden_dir = normalise(util::dir_name(hidden));
                bool intended = false;
                for (const auto& d : dirs) intended = intended || normalise(d) == hidden_dir;
                if (!intended || util::dir_name(r.path) == hidden_dir) continue;
                auto key = std::make_pair(util::dir_name(r.path), hidden_dir);
                auto [it, inserted] = by_pair.try_emplace(key);
                if (inserted) order.push_back(key);
                it->second.push_back({&o, &r, normalise(hidden)});
                break;
            }
        }
    }
    std::vector<report::Finding> out;
    for (const auto& key : order) out.push_back(finding_for(stack, by_pair[key]));
    return out;
}

}  // namespace cuv002

const ValidateCheck cuv002_shadowed_library{
    CheckInfo{
        .id = "CUV002",
        .severity = report::Severity::warning,
        .name = "shadowed-library",
    },
    &cuv002::run,
};

}  // namespace cuvet::checks
