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

const FrameworkInstall* framework_through(const Stack& stack, std::string_view root,
                                          const std::vector<std::string>& files) {
    if (const auto* fw = framework_labelled(stack, root)) return fw;
    auto among = [](const std::vector<std::string>& list, const std::string& item) {
        return std::find(list.begin(), list.end(), item) != list.end();
    };
    std::vector<const ElfObject*> mine;
    for (const auto& o : stack.objects)
        if (const auto* r = stack.root_of(o.file); o.consumer && r != nullptr && *r == root)
            mine.push_back(&o);
    auto reached = load_closure(stack, mine, true);
    for (const auto* o : mine) reached.push_back(o->file);
    const FrameworkInstall* through = nullptr;
    for (const auto& o : stack.objects) {
        if (!among(reached, o.file) || among(files, o.file)) continue;
        // cuDNN's own libraries load each other; what loads cuDNN into the process is asked.
        if (const auto* self = stack.library(o.file); self && starts_with(self->family, "cudnn"))
            continue;
        const bool loads = std::any_of(o.resolutions.begin(), o.resolutions.end(),
                                       [&](const Resolution& r) { return among(files, r.file); });
        if (!loads) continue;
        const FrameworkInstall* owner = nullptr;
        for (const auto& fw : stack.frameworks)
            if (among(fw.libraries, o.path) || among(fw.libraries, o.file)) owner = &fw;
        if (owner == nullptr || (through != nullptr && through != owner)) return nullptr;
        through = owner;
    }
    return through;
}

std::vector<std::string> roots_loading(const Stack& stack, const std::vector<std::string>& files) {
    std::vector<std::string> out;
    for (const auto& file : files)
        if (const auto* root = stack.root_of(file);
            root && std::find(out.begin(), out.end(), *root) == out.end())
            out.push_back(*root);
    return out;
}

std::vector<std::string> roots_reaching(const Stack& stack, const std::vector<std::string>& files) {
    std::vector<std::string> out;
    auto add = [&out](const std::string& label) {
        if (std::find(out.begin(), out.end(), label) == out.end()) out.push_back(label);
    };
    auto wanted = [&files](const std::string& file) {
        return std::find(files.begin(), files.end(), file) != files.end();
    };
    for (const auto& file : files)
        if (const auto* first = stack.root_of(file)) add(*first);
    for (const auto& o : stack.objects) {
        if (!o.consumer) continue;
        const auto* root = stack.root_of(o.file);
        if (root == nullptr) continue;
        const auto closure = load_closure(stack, {&o}, true);
        if (std::any_of(closure.begin(), closure.end(), wanted)) add(*root);
    }
    for (const auto& fw : stack.frameworks)
        for (const auto& load : fw.loads)
            if (wanted(load.resolution.file)) add(import_label(fw));
    return out;
}

void name_roots(report::Finding& finding, const std::vector<std::string>& roots, bool in_message) {
    if (roots.empty()) return;
    finding.loaded_by = roots.front();
    for (std::size_t i = 1; i < roots.size(); ++i)
        finding.evidence.push_back("also loaded: " + roots[i]);
    // loaded_by holds one root, and the short text report shows no evidence: the message is
    // what every format shows, so it names every root the problem breaks.
    if (!in_message || roots.size() < 2) return;
    finding.message += " It breaks every one of them: ";
    for (std::size_t i = 0; i < roots.size(); ++i)
        finding.message += (i == 0 ? "" : i + 1 == roots.size() ? " and " : ", ") + roots[i];
    finding.message += ".";
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
