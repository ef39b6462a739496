// CUV022 by-name-library-missing
#include <algorithm>
#include <set>

#include "check_util.hpp"
#include "checks.hpp"
#include "cuvet/rules/by_name_loads.hpp"

namespace cuvet::checks {

namespace cuv022 {

// Every root that maps `file`: the first one, each consumer whose closure (dlopen()s
// followed) reaches it, and each framework that opens it itself: all of them break.
std::vector<std::string> roots_mapping(const Stack& stack, const std::string& file) {
    std::vector<std::string> out;
    auto add = [&out](const std::string& label) {
        if (std::find(out.begin(), out.end(), label) == out.end()) out.push_back(label);
    };
    if (const auto* first = stack.root_of(file)) add(*first);
    for (const auto& o : stack.objects) {
        if (!o.consumer) continue;
        const auto* root = stack.root_of(o.file);
        if (root == nullptr) continue;
        const auto closure = util::load_closure(stack, {&o}, true);
        if (std::find(closure.begin(), closure.end(), file) != closure.end()) add(*root);
    }
    for (const auto& fw : stack.frameworks)
        for (const auto& load : fw.loads)
            if (load.resolution.file == file) add(util::import_label(fw));
    return out;
}

std::string who(const Stack& stack, const std::string& label) {
    const auto* fw = util::framework_labelled(stack, label);
    return fw != nullptr ? fw->name + " " + fw->version.str() : label;
}

// The SONAME of the file a resolution found; "" when it is not an object of the stack.
std::string soname_found(const Stack& stack, const Resolution& r) {
    for (const auto& o : stack.objects)
        if (o.file == r.file) return o.elf->soname;
    return "";
}

// Does this root fail at its first use of the opener? A framework the rules do not list
// only loses `breaks` (torch's convolution never calls NVRTC); a program that links the
// opener is taken to call it.
bool fails_at_first_use(const Stack& stack, const rules::ByNameLoad& load,
                        const std::string& root) {
    if (load.first_use_by.empty()) return true;
    const auto* fw = util::framework_labelled(stack, root);
    return fw == nullptr || std::find(load.first_use_by.begin(), load.first_use_by.end(),
                                      fw->name) != load.first_use_by.end();
}

report::Finding finding(const Stack& stack, const rules::ByNameLoad& load, const ElfObject& loader,
                        const Resolution& r, const std::string& wrong_soname,
                        const std::vector<std::string>& roots, bool first_use) {
    report::Finding f;
    f.id = "CUV022";
    f.severity = load.severity == "warning" || !first_use ? report::Severity::warning
                                                          : report::Severity::error;
    std::string users;
    for (std::size_t i = 0; i < roots.size(); ++i)
        users += (i == 0 ? "" : i + 1 == roots.size() ? " and " : ", ") + who(stack, roots[i]);
    const bool missing = wrong_soname.empty();
    f.message = loader.path + " dlopen()s " + r.name + " by that exact name (it is in " +
                util::base_name(loader.path) + "'s own strings), but " +
                (missing ? "neither its RUNPATH, LD_LIBRARY_PATH nor the cache finds it"
                         : "the file found, " + r.path + ", is " + wrong_soname +
                               " (its SONAME): another release under this name") +
                ". " + (first_use ? "The first use fails" : "Only " + load.breaks + " fails") +
                " in " + users + " with: \"" +
                rules::with_name(missing ? load.missing : load.mismatch, util::base_name(r.name)) +
                "\"" + (first_use ? " (" + load.breaks + ")." : "; the rest works.");
    f.locations.push_back({loader.path});
    f.evidence.push_back(r.name + " is opened by name by " + load.loader_prefix +
                         "*: " + util::cite(load.provenance));
    util::name_roots(f, roots);
    util::add_trace(f, r, 12);
    f.fix = "Install " + r.name + " from the same release as " + util::base_name(loader.path) +
            " (the package or wheel that ships both), beside it or on LD_LIBRARY_PATH; never a "
            "copy of another release renamed.";
    return f;
}

std::vector<report::Finding> run(const Stack& stack, const rules::Database& db) {
    std::vector<report::Finding> out;
    std::vector<util::UnloadedProblem> unloaded;
    const auto& loads = rules::by_name_loads(db);
    for (const auto& o : stack.objects) {
        // One name may be searched twice (as a CUDA-stack dlopen name and by path beside the
        // opener): one finding.
        std::set<std::string> reported;
        for (const auto& load : loads) {
            if (load.severity == "none" || !load.loads(o.elf->soname)) continue;
            for (const auto& r : o.resolutions) {
                if (!r.from_dlopen || !load.opens(util::base_name(r.name)) || r.provided_by_host)
                    continue;
                const bool missing = r.path.empty() || r.error;
                std::string wrong;
                if (!missing && load.name_is_soname) {
                    wrong = soname_found(stack, r);
                    if (wrong.empty() || wrong == util::base_name(r.name)) continue;
                } else if (!missing) {
                    continue;
                }
                if (!reported.insert(util::base_name(r.name)).second) continue;
                const auto roots = roots_mapping(stack, o.file);
                if (roots.empty()) {
                    unloaded.push_back({o.path, r.name + (missing ? "" : " (" + wrong + ")")});
                    continue;
                }
                std::vector<std::string> fatal, partial;
                for (const auto& root : roots)
                    (fails_at_first_use(stack, load, root) ? fatal : partial).push_back(root);
                if (!fatal.empty()) out.push_back(finding(stack, load, o, r, wrong, fatal, true));
                if (!partial.empty())
                    out.push_back(finding(stack, load, o, r, wrong, partial, false));
            }
        }
    }
    auto grouped = util::unloaded_findings(
        "CUV022", unloaded, "cannot open a library it loads by name",
        "cannot open libraries they load by name",
        "Nothing breaks while nothing loads them; install the whole release before something "
        "does.");
    out.insert(out.end(), grouped.begin(), grouped.end());
    return out;
}

}  // namespace cuv022

const ValidateCheck cuv022_by_name_library_missing{
    CheckInfo{
        .id = "CUV022",
        .severity = report::Severity::error,
        .name = "by-name-library-missing",
    },
    &cuv022::run,
};

}  // namespace cuvet::checks
