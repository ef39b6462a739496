#include "check_util.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace cuvet::checks::util {

std::string version_text(const std::optional<rules::Version>& version) {
    return version ? version->str() : "unknown version";
}

std::string import_label(const FrameworkInstall& fw) { return "imported by " + base_name(fw.root); }

const FrameworkInstall* framework_labelled(const Stack& stack, std::string_view label) {
    for (const auto& fw : stack.frameworks)
        if (label == import_label(fw)) return &fw;
    return nullptr;
}

std::string first_unresolved(const Stack& stack, const ElfObject& root) {
    std::map<std::string_view, const ElfObject*> by_file;
    for (const auto& o : stack.objects) by_file.emplace(o.file, &o);
    std::vector<const ElfObject*> order = {&root};
    for (const auto& file : load_closure(stack, {&root}, false))
        if (auto it = by_file.find(file); it != by_file.end()) order.push_back(it->second);
    for (const auto* o : order)
        for (const auto& r : o->resolutions)
            if (!r.from_dlopen && !r.provided_by_host && r.path.empty()) return r.name;
    return "";
}

std::vector<std::string> roots_loading(const Stack& stack, const std::vector<std::string>& files) {
    std::vector<std::string> out;
    for (const auto& file : files)
        if (const auto* root = stack.root_of(file);
            root && std::find(out.begin(), out.end(), *root) == out.end())
            out.push_back(*root);
    return out;
}

void name_roots(report::Finding& finding, const std::vector<std::string>& roots) {
    if (roots.empty()) return;
    finding.loaded_by = roots.front();
    for (std::size_t i = 1; i < roots.size(); ++i)
        finding.evidence.push_back("also loaded: " + roots[i]);
}

std::vector<report::Finding> unloaded_findings(std::string_view id,
                                               const std::vector<UnloadedProblem>& problems,
                                               std::string_view singular, std::string_view plural,
                                               std::string fix) {
    // Directories in path order: a directory below one already seen joins its group.
    std::map<std::string, std::vector<const UnloadedProblem*>> by_dir;
    for (const auto& p : problems) by_dir[dir_name(p.file)].push_back(&p);
    std::map<std::string, std::vector<const UnloadedProblem*>> groups;
    std::vector<std::string> tops;
    for (const auto& [dir, list] : by_dir) {
        std::string top = dir;
        for (const auto& t : tops)
            if (dir == t || under(dir, t)) top = t;
        if (top == dir) tops.push_back(dir);
        auto& group = groups[top];
        group.insert(group.end(), list.begin(), list.end());
    }
    std::vector<report::Finding> out;
    for (const auto& [dir, list] : groups) {
        std::vector<std::string> details;
        for (const auto* p : list)
            if (!p->detail.empty() &&
                std::find(details.begin(), details.end(), p->detail) == details.end())
                details.push_back(p->detail);
        std::set<std::string_view> files;
        for (const auto* p : list) files.insert(p->file);
        std::string detail_text;
        for (std::size_t i = 0; i < details.size() && i < 4; ++i)
            detail_text += (i ? ", " : "") + details[i];
        if (details.size() > 4)
            detail_text += " and " + std::to_string(details.size() - 4) + " more";
        report::Finding f;
        f.id = std::string(id);
        f.severity = report::Severity::info;
        if (files.size() == 1)
            f.message = list.front()->file + " " + std::string(singular) +
                        (detail_text.empty() ? "" : " (" + detail_text + ")") +
                        "; nothing in the image loads it";
        else
            f.message = std::to_string(files.size()) + " files under " + dir + " " +
                        std::string(plural) +
                        (detail_text.empty() ? "" : " (" + detail_text + ")") +
                        "; nothing in the image loads them";
        f.locations = {{files.size() == 1 ? list.front()->file : dir}};
        constexpr std::size_t shown = 16;
        for (std::size_t i = 0; i < list.size() && i < shown; ++i)
            f.evidence.push_back(list[i]->file +
                                 (list[i]->detail.empty() ? "" : ": " + list[i]->detail));
        if (list.size() > shown)
            f.evidence.push_back("… " + std::to_string(list.size() - shown) + " more");
        f.evidence.push_back(
            "no ENTRYPOINT/CMD program, framework, Python extension module or interpreter on PATH "
            "maps " +
            std::string(files.size() == 1 ? "it" : "them") + " (DT_NEEDED and known dlopen names)");
        f.fix = fix;
        out.push_back(std::move(f));
    }
    return out;
}

bool is_main_cudnn(std::string_view name) { return starts_with(name, "libcudnn.so."); }
bool is_cudart(std::string_view name) { return starts_with(name, "libcudart.so."); }

}  // namespace cuvet::checks::util
