// CUV019 cudnn-sublibrary-missing
#include <algorithm>
#include <map>

#include "check_util.hpp"
#include "checks.hpp"
#include "cuvet/rules/cudnn_sub_libraries.hpp"

namespace cuvet::checks {

namespace cuv019 {

// "torch 2.11.0" for a framework's root, the root itself for a program.
std::string who(const Stack& stack, const std::string& label) {
    const auto* fw = util::framework_labelled(stack, label);
    return fw != nullptr ? fw->name + " " + fw->version.str() : label;
}

std::string listed(const std::vector<std::string>& items) {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i)
        out += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
    return out;
}

struct Missing {
    const Resolution* resolution;
    const rules::CudnnSubLibraryUse* use;
};

// Roots that lose the same sub-libraries for the same reason share one finding, so every
// framework a missing library breaks is named, and none is named for what it never loads.
// `needs`: what the rules measured for these roots' frameworks; empty where it is not known (a
// program, another framework or release): judged by what each sub-library serves then.
struct Group {
    std::vector<Missing> missing;
    std::vector<const rules::CudnnConsumerNeed*> needs;
    std::vector<std::string> roots;
};

std::vector<std::string> names_of(const std::vector<Missing>& list) {
    std::vector<std::string> out;
    for (const auto& m : list) out.push_back(m.resolution->name);
    return out;
}

template <typename T>
void add_once(std::vector<T>& list, const T& item) {
    if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

// Each root's missing sub-libraries split into those its convolution needs (`fatal`: one error
// per set of them) and the others (`spared`: one warning per set and reason).
void group_roots(const Stack& stack, const rules::CudnnSubLibraries& set, const ElfObject& shim,
                 const std::vector<Missing>& missing, const std::vector<std::string>& roots,
                 std::vector<Group>& fatal, std::vector<Group>& spared) {
    for (const auto& root : roots) {
        const rules::CudnnConsumerNeed* need = nullptr;
        if (const auto* fw = util::framework_through(stack, root, {shim.file}))
            need = set.need_of(fw->name, fw->version);
        std::vector<Missing> needed, other;
        for (const auto& m : missing) {
            const bool needs_it =
                need != nullptr ? std::count(need->convolution_opens.begin(),
                                             need->convolution_opens.end(), m.resolution->name) > 0
                                : m.use->convolution.value_or(false);
            (needs_it ? needed : other).push_back(m);
        }
        auto join = [&](std::vector<Group>& groups, const std::vector<Missing>& list,
                        bool by_need) {
            if (list.empty()) return;
            auto it = std::find_if(groups.begin(), groups.end(), [&](const Group& g) {
                return names_of(g.missing) == names_of(list) &&
                       (!by_need ||
                        (need == nullptr ? g.needs.empty() : g.needs == std::vector{need}));
            });
            if (it == groups.end()) it = groups.insert(groups.end(), Group{list, {}, {}});
            if (need != nullptr) add_once(it->needs, need);
            add_once(it->roots, root);
        };
        join(fatal, needed, false);
        // Spared for a measured reason and spared by cuDNN's split are worded apart.
        join(spared, other, true);
    }
}

// Why the convolution of a group's roots is spared, or may be.
std::string spared_words(const Group& group, const std::string& users) {
    if (!group.needs.empty()) {
        const auto* need = group.needs.front();
        return "Convolution works: " + users + (group.roots.size() == 1 ? " calls" : " call") +
               " cuDNN through " + need->api + ", whose convolution opens only " +
               listed(need->convolution_opens) + "; ";
    }
    std::vector<std::string> unknown;
    for (const auto& m : group.missing)
        if (!m.use->convolution) unknown.push_back(m.resolution->name);
    // A sub-library nobody has shown the convolution path to skip is not called spared.
    return unknown.empty()
               ? "Convolution works; "
               : "A convolution may work (whether it needs " + listed(unknown) + " is unknown); ";
}

report::Finding finding(const Stack& stack, const rules::CudnnSubLibraries& set,
                        const ElfObject& shim, const Group& group, bool breaks_convolution) {
    // The shim's own file, not the path it was reached by ("torch/lib/../../nvidia/cudnn/lib"):
    // the finding must not read as one about the framework whose RPATH found it.
    report::Finding f;
    f.id = "CUV019";
    f.severity = breaks_convolution ? report::Severity::error : report::Severity::warning;
    const auto names = names_of(group.missing);
    std::vector<std::string> users;
    for (const auto& r : group.roots) users.push_back(who(stack, r));
    const std::string status = set.missing_status.empty() ? "an error" : set.missing_status;
    f.message = "cuDNN " + std::to_string(set.major) + "'s " + shim.file + " cannot load " +
                listed(names) +
                ": it dlopen()s its sub-libraries by name, and neither its RUNPATH, "
                "LD_LIBRARY_PATH nor the cache finds " +
                (names.size() == 1 ? "it" : "them") + ". ";
    if (breaks_convolution) {
        f.message += "The first convolution fails with " + status + " in " + listed(users) + ".";
    } else {
        std::vector<std::string> apis;
        for (const auto& m : group.missing) apis.push_back(m.use->serves);
        f.message += spared_words(group, listed(users)) + listed(apis) + " fail" +
                     (apis.size() == 1 ? "s" : "") + " with " + status + " in " + listed(users) +
                     ".";
    }
    f.locations.push_back({shim.file});
    for (const auto& m : group.missing) {
        const std::string need = !m.use->convolution.has_value()
                                     ? "unknown whether convolution needs it"
                                 : *m.use->convolution ? "convolution needs it"
                                                       : "convolution does not need it";
        // Where a framework's own need decides, cuDNN's split is only what the library serves.
        f.evidence.push_back(m.resolution->name + " serves " + m.use->serves + " (" +
                             (group.needs.empty() ? "" : "by cuDNN's split, ") + need +
                             "): " + util::cite(m.use->provenance));
    }
    for (const auto* need : group.needs)
        f.evidence.push_back(need->framework + " " + need->min_version.str() +
                             "'s convolution opens " + listed(need->convolution_opens) + ": " +
                             util::cite(need->provenance));
    if (set.statuses_provenance)
        f.evidence.push_back(status + ": " + util::cite(*set.statuses_provenance));
    util::name_roots(f, group.roots);
    util::add_trace(f, *group.missing.front().resolution, 12);
    f.fix = "Install the whole cuDNN " + std::to_string(set.major) + " release beside " +
            shim.file + " (the package or wheel that ships it, e.g. " +
            util::pip_package("cudnn", std::nullopt) +
            "-cuXX), never single files; or put the directory holding " + listed(names) +
            " on LD_LIBRARY_PATH.";
    return f;
}

std::vector<report::Finding> run(const Stack& stack, const rules::Database& db) {
    std::vector<report::Finding> out;
    std::vector<util::UnloadedProblem> unloaded;
    const auto& sets = rules::cudnn_sub_libraries(db);
    for (const auto& shim : stack.objects) {
        const rules::CudnnSubLibraries* set = nullptr;
        for (const auto& s : sets)
            if (s.main == shim.elf->soname) set = &s;
        if (set == nullptr) continue;
        std::vector<Missing> missing;
        for (const auto& r : shim.resolutions) {
            if (!r.path.empty() && !r.error) continue;
            if (const auto* use = set->use_of(r.name)) missing.push_back({&r, use});
        }
        if (missing.empty()) continue;
        const auto roots = util::roots_reaching(stack, {shim.file});
        if (roots.empty()) {
            unloaded.push_back({shim.path, "cuDNN without " + listed(names_of(missing))});
            continue;
        }
        std::vector<Group> fatal, spared;
        group_roots(stack, *set, shim, missing, roots, fatal, spared);
        for (const auto& g : fatal) out.push_back(finding(stack, *set, shim, g, true));
        for (const auto& g : spared) out.push_back(finding(stack, *set, shim, g, false));
    }
    auto grouped = util::unloaded_findings(
        "CUV019", unloaded, "is a cuDNN shim whose sub-libraries do not load",
        "are cuDNN shims whose sub-libraries do not load",
        "Nothing breaks while nothing loads them; install the whole cuDNN release before "
        "something does.");
    out.insert(out.end(), grouped.begin(), grouped.end());
    return out;
}

}  // namespace cuv019

const ValidateCheck cuv019_cudnn_sublibrary_missing{
    CheckInfo{
        .id = "CUV019",
        .severity = report::Severity::error,
        .name = "cudnn-sublibrary-missing",
    },
    &cuv019::run,
};

}  // namespace cuvet::checks
