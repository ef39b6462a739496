// CUV003 duplicate-versions
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "check_util.hpp"
#include "checks.hpp"

namespace cuvet::checks {

namespace cuv003 {

// One library of `family` in a process, and how it got there.
struct Mapped {
    const LibraryCopy* copy;
    std::string how;  // "LD_PRELOAD", "DT_NEEDED closure of /opt/app/bin/infer"
};

// Objects the loader mapped that no object needs and no framework opens: what LD_PRELOAD and
// /etc/ld.so.preload put into every process, ahead of its DT_NEEDED (loader::Loader::resolve).
std::vector<std::pair<const ElfObject*, std::string>> preloaded(const Stack& stack) {
    std::set<std::string_view> needed;
    for (const auto& o : stack.objects)
        for (const auto& r : o.resolutions) needed.insert(r.file);
    for (const auto& fw : stack.frameworks)
        for (const auto& load : fw.loads) needed.insert(load.resolution.file);
    for (const auto& root : stack.roots) needed.insert(root.path);  // what the image runs
    const auto env = stack.env.find("LD_PRELOAD");
    std::vector<std::pair<const ElfObject*, std::string>> out;
    for (const auto& o : stack.objects) {
        // A preloaded main cuDNN is also resolved on its own (a consumer): still a preload.
        if (needed.count(o.file) || needed.count(o.path) || stack.root_of(o.file) == nullptr)
            continue;
        const bool by_env = env != stack.env.end() &&
                            (env->second.find(o.path) != std::string::npos ||
                             env->second.find(util::base_name(o.path)) != std::string::npos);
        out.emplace_back(&o, by_env ? "LD_PRELOAD" : "/etc/ld.so.preload");
    }
    return out;
}

// Every main CUDA library one root's process maps: the preloads and their DT_NEEDED, then its
// own DT_NEEDED closure. dlopen() names are left out: a framework carries several majors' names
// for one library and opens the first that loads.
std::map<std::string, std::map<int, Mapped>> majors_in_process(
    const Stack& stack, const ElfObject& root,
    const std::vector<std::pair<const ElfObject*, std::string>>& preloads) {
    std::map<std::string, std::map<int, Mapped>> out;
    auto add = [&](const std::string& file, const std::string& how) {
        const auto* copy = stack.library(file);
        if (copy == nullptr || copy->family.find('_') != std::string::npos || !copy->version)
            return;
        out[copy->family].try_emplace(copy->version->major(), Mapped{copy, how});
    };
    std::vector<const ElfObject*> objects;
    for (const auto& [object, how] : preloads) {
        add(object->file, how);
        objects.push_back(object);
    }
    for (const auto& file : util::load_closure(stack, objects, false))
        add(file, "needed by a preloaded library");
    for (const auto& file : util::load_closure(stack, {&root}, false))
        add(file, "DT_NEEDED closure of " + root.path);
    return out;
}

// Two majors of one library in one process (a preloaded cuDNN 8 ahead of the libcudnn.so.9 a
// program links): both export the same API names, and ld.so binds each call to the first
// definition that matches, so one of them runs code of the other major.
std::vector<report::Finding> majors_mixed(const Stack& stack) {
    std::map<std::string, report::Finding> by_key;
    std::map<std::string, std::vector<std::string>> roots_of;  // every root the mix is in
    std::vector<std::string> order;
    const auto preloads = preloaded(stack);
    for (const auto& o : stack.objects) {
        const auto* root = stack.root_of(o.file);
        if (!o.consumer || root == nullptr) continue;
        for (const auto& [family, majors] : majors_in_process(stack, o, preloads)) {
            if (majors.size() < 2) continue;
            std::string key = family;
            for (const auto& [major, m] : majors) key += " " + m.copy->path;
            auto [it, inserted] = by_key.try_emplace(key);
            auto& f = it->second;
            if (inserted) {
                order.push_back(key);
                f.id = "CUV003";
                f.severity = report::Severity::error;
                f.message = "One process maps " + std::to_string(majors.size()) + " majors of lib" +
                            family + ":";
                for (const auto& [major, m] : majors) {
                    f.message +=
                        " " + m.copy->path + " (" + std::to_string(major) + ", " + m.how + ");";
                    f.locations.push_back({m.copy->path});
                }
                f.message.back() = '.';
                f.message +=
                    " Both export the same API names and ld.so binds each call to the "
                    "first definition it finds, so code built for one major runs the "
                    "other.";
                f.fix =
                    "Remove the other major from the process: drop it from LD_PRELOAD and "
                    "/etc/ld.so.preload, or make every consumer use one major.";
            }
            auto& roots = roots_of[key];
            if (std::find(roots.begin(), roots.end(), *root) == roots.end()) roots.push_back(*root);
        }
    }
    std::vector<report::Finding> out;
    for (const auto& key : order) {
        util::name_roots(by_key[key], roots_of[key], true);
        out.push_back(std::move(by_key[key]));
    }
    return out;
}

std::vector<report::Finding> run(const Stack& stack, const rules::Database&) {
    // Main libraries only: sub-libraries follow their main one (CUV005 judges those).
    std::map<std::string, std::vector<const LibraryCopy*>> by_family;
    for (const auto& copy : stack.libraries)
        if (copy.family.find('_') == std::string::npos && copy.version)
            by_family[copy.family].push_back(&copy);
    std::vector<report::Finding> out;
    for (const auto& [family, copies] : by_family) {
        std::set<std::string> versions;
        for (const auto* c : copies) versions.insert(c->version->truncated(3).str());
        if (versions.size() < 2) continue;
        report::Finding f;
        f.message =
            std::to_string(copies.size()) + " copies of " + family + " with different versions:";
        for (const auto* c : copies) {
            f.message += " " + util::describe(*c) + ";";
            f.locations.push_back({c->path});
            for (const auto& p : c->provenance) f.evidence.push_back(c->path + ": " + p);
        }
        f.message.back() = '.';
        std::set<std::string> loaded;
        for (const auto& o : stack.objects) {
            if (!o.consumer) continue;
            for (const auto& r : o.resolutions) {
                const auto* c = stack.library(r.file);
                if (c == nullptr || c->family != family) continue;
                f.evidence.push_back(o.path + " loads " + r.name + " → " + r.file + " (" +
                                     r.how_found() + ")");
                loaded.insert(r.file);
            }
        }
        std::vector<std::string> files;
        for (const auto* c : copies) files.push_back(c->path);
        const auto roots = util::roots_loading(stack, files);
        // Copies differ in a way that matters only when what the image runs maps more than one
        // version (Triton's bundled cupti, which nothing maps at import, beside the wheel's).
        std::set<std::string> loaded_versions;
        std::vector<std::string> loaded_copies;
        for (const auto* c : copies)
            if (stack.root_of(c->path) != nullptr) {
                loaded_versions.insert(c->version->truncated(3).str());
                loaded_copies.push_back(c->path);
            }
        if (roots.empty()) {
            // Which copy wins matters only to what loads one.
            f.id = "CUV003";
            f.severity = report::Severity::info;
            f.message += " Nothing in the image loads them.";
        } else if (loaded_versions.size() < 2) {
            f.id = "CUV003";
            f.severity = report::Severity::info;
            f.message += " What the image runs maps only " + loaded_copies.front() +
                         "; nothing maps the others.";
        }
        util::name_roots(f, roots);
        if (!loaded.empty())
            f.message += " Consumers load: " + [&] {
                std::string s;
                for (const auto& l : loaded) s += (s.empty() ? "" : ", ") + l;
                return s;
            }() + ".";
        f.fix = "Keep one " + family +
                " (the version your framework was built with) and remove the others (apt-get purge "
                "the package, pip uninstall the wheel), or pin both to the same version.";
        out.push_back(std::move(f));
    }
    auto mixed = majors_mixed(stack);
    out.insert(out.end(), mixed.begin(), mixed.end());
    return out;
}

}  // namespace cuv003

const ValidateCheck cuv003_duplicate_versions{
    CheckInfo{
        .id = "CUV003",
        .severity = report::Severity::warning,
        .name = "duplicate-versions",
    },
    &cuv003::run,
};

}  // namespace cuvet::checks
