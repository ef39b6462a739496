// What the framework models share: see model_support.hpp.
#include "model_support.hpp"

#include <filesystem>
#include <set>

#include "cuvet/stack/loader_resolution.hpp"

namespace cuvet::frameworks::detail {

using stack::FrameworkInstall;
using stack::FrameworkLoad;
using stack::FrameworkTool;

bool starts_with(std::string_view s, std::string_view head) {
    return s.substr(0, head.size()) == head;
}

std::string dir_name(std::string_view path) {
    auto slash = path.rfind('/');
    return slash == std::string_view::npos ? std::string() : std::string(path.substr(0, slash));
}

std::string normal(const std::string& path) {
    auto out = std::filesystem::path(path).lexically_normal().string();
    if (out.size() > 1 && out.back() == '/') out.pop_back();
    return out;
}

bool is_file(const inventory::Analysis& analysis, const std::string& path) {
    auto r = analysis.tree.resolve(path);
    return r.status == image::Resolution::Status::ok && r.entry != nullptr &&
           r.entry->type == image::FileType::regular;
}

bool is_dir(const inventory::Analysis& analysis, const std::string& path) {
    auto r = analysis.tree.resolve(path);
    return r.status == image::Resolution::Status::ok && r.entry != nullptr &&
           r.entry->type == image::FileType::directory;
}

const inventory::Component* sibling(const inventory::Inventory& inventory, std::string_view name,
                                    const std::string& site) {
    for (const auto* c : inventory.find(name))
        if (starts_with(c->location, site + "/")) return c;
    return nullptr;
}

std::string attribute(const inventory::Component& c, const std::string& key) {
    auto it = c.attributes.find(key);
    return it == c.attributes.end() ? "" : it->second;
}

void copy_pins(const inventory::Component& c, FrameworkInstall& fw) {
    for (const auto& [key, value] : c.attributes)
        if (starts_with(key, "requires:")) fw.pins.emplace(key.substr(9), value);
}

FrameworkTool find_tool(const inventory::Analysis& analysis, std::string name,
                        std::vector<std::string> candidates, bool directory) {
    FrameworkTool tool;
    tool.name = std::move(name);
    std::set<std::string> seen;
    for (auto& c : candidates) {
        if (!seen.insert(c).second) continue;
        tool.searched.push_back(c);
        if (tool.path.empty() && (directory ? is_dir(analysis, c) : is_file(analysis, c)))
            tool.path = c;
    }
    return tool;
}

std::vector<std::string> path_dirs(const std::map<std::string, std::string>& env) {
    std::vector<std::string> dirs;
    auto it = env.find("PATH");
    if (it == env.end()) return dirs;
    std::size_t at = 0;
    const auto& path = it->second;
    while (at <= path.size()) {
        auto colon = path.find(':', at);
        auto dir = path.substr(at, colon == std::string::npos ? std::string::npos : colon - at);
        if (!dir.empty()) dirs.push_back(dir);
        if (colon == std::string::npos) break;
        at = colon + 1;
    }
    return dirs;
}

std::string compiler_release(const inventory::Analysis& analysis, const std::string& path) {
    auto r = analysis.tree.resolve(path);
    if (r.status != image::Resolution::Status::ok || r.entry == nullptr) return "";
    const auto* data = analysis.tree.data_entry(*r.entry);
    auto it = analysis.elfs.find(data != nullptr ? data->path : r.path);
    return it == analysis.elfs.end() ? "" : it->second.cuda_tools_release;
}

// What dlopen(name) from `requester` maps, and the DT_NEEDED under it that do
// not resolve (a library whose dependency is missing does not load either).
FrameworkLoad open_from(const loader::Loader& loader, const std::string& requester,
                        const std::string& component, const std::string& name) {
    FrameworkLoad load;
    load.component = component;
    // As a name after the requester's DT_NEEDED, so the image's ELF facts stay as scanned.
    const loader::ExtraNeededByFile extra = {{requester, loader::ExtraNeeded{{}, {name}}}};
    const loader::Graph graph = loader.resolve(requester, extra);
    const auto& r = graph.resolutions[graph.objects[0].needs.back()];
    load.resolution = stack::from_loader(r, true);
    if (!r.object) return load;
    std::vector<std::size_t> queue = {*r.object};
    std::set<std::size_t> seen = {*r.object};
    for (std::size_t i = 0; i < queue.size(); ++i) {
        for (auto index : graph.objects[queue[i]].needs) {
            const auto& dep = graph.resolutions[index];
            if (dep.status == loader::Status::not_found || dep.status == loader::Status::error)
                load.missing.push_back(dep.name + " (needed by " + graph.objects[queue[i]].path +
                                       ")");
            if (dep.object && seen.insert(*dep.object).second) queue.push_back(*dep.object);
        }
    }
    return load;
}

}  // namespace cuvet::frameworks::detail
