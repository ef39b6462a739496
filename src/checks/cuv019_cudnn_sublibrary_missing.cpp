// CUV019 cudnn-sublibrary-missing
#include <algorithm>
#include <map>

#include "check_util.hpp"
#include "checks.hpp"
#include "cuvet/rules/cudnn_sub_libraries.hpp"

namespace cuvet::checks {

namespace cuv019 {

// Every root that maps `file`: the first one (loaded_by), each consumer whose closure reaches
// it (dlopen()s followed: frameworks open cuDNN by name), and each framework that opens it
// itself. A shim torch and a C++ program both load breaks both.
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

report::Finding finding(const Stack& stack, const rules::CudnnSubLibraries& set,
                        const ElfObject& shim, const std::vector<Missing>& missing,
                        const std::vector<std::string>& roots, bool breaks_convolution) {
    report::Finding f;
    f.id = "CUV019";
    f.severity = breaks_convolution ? report::Severity::error : report::Severity::warning;
    std::vector<std::string> names, users;
    for (const auto& m : missing) names.push_back(m.resolution->name);
    for (const auto& r : roots) users.push_back(who(stack, r));
    const std::string status = set.missing_status.empty() ? "an error" : set.missing_status;
    f.message = "cuDNN " + std::to_string(set.major) + "'s " + shim.path + " cannot load " +
                listed(names) +
                ": it dlopen()s its sub-libraries by name, and neither its RUNPATH, "
                "LD_LIBRARY_PATH nor the cache finds " +
                (names.size() == 1 ? "it" : "them") + ". ";
    if (breaks_convolution) {
        f.message += "The first convolution fails with " + status + " in " + listed(users) + ".";
    } else {
        std::vector<std::string> apis, unknown;
        for (const auto& m : missing) {
            apis.push_back(m.use->serves);
            if (!m.use->convolution) unknown.push_back(m.resolution->name);
        }
        // A sub-library nobody has shown the convolution path to skip is not called spared.
        f.message += (unknown.empty() ? "Convolution works; "
                                      : "A convolution may work (whether it needs " +
                                            listed(unknown) + " is unknown); ") +
                     listed(apis) + " fail" + (apis.size() == 1 ? "s" : "") + " with " + status +
                     " in " + listed(users) + ".";
    }
    f.locations.push_back({shim.path});
    for (const auto& m : missing) {
        const std::string need = !m.use->convolution.has_value()
                                     ? "unknown whether convolution needs it"
                                 : *m.use->convolution ? "convolution needs it"
                                                       : "convolution does not need it";
        f.evidence.push_back(m.resolution->name + " serves " + m.use->serves + " (" + need +
                             "): " + util::cite(m.use->provenance));
    }
    if (set.statuses_provenance)
        f.evidence.push_back(status + ": " + util::cite(*set.statuses_provenance));
    util::name_roots(f, roots);
    util::add_trace(f, *missing.front().resolution, 12);
    f.fix = "Install the whole cuDNN " + std::to_string(set.major) + " release beside " +
            shim.path + " (the package or wheel that ships it, e.g. " +
            util::pip_package("cudnn", std::nullopt) +
            "-cuXX), never single files; or put the directory holding " + listed(names) +
            " on LD_LIBRARY_PATH.";
    return f;
}

std::vector<report::Finding> run(const Stack& stack, const rules::Database& db) {
    std::vector<report::Finding> out;
    std::vector<util::UnloadedProblem> unloaded;
    const auto sets = rules::cudnn_sub_libraries(db);
    for (const auto& shim : stack.objects) {
        const rules::CudnnSubLibraries* set = nullptr;
        for (const auto& s : sets)
            if (s.main == shim.elf->soname) set = &s;
        if (set == nullptr) continue;
        std::vector<Missing> fatal, partial;
        for (const auto& r : shim.resolutions) {
            if (!r.path.empty() && !r.error) continue;
            for (const auto& use : set->uses)
                if (use.soname == r.name)
                    (use.convolution.value_or(false) ? fatal : partial).push_back({&r, &use});
        }
        if (fatal.empty() && partial.empty()) continue;
        const auto roots = roots_mapping(stack, shim.file);
        if (roots.empty()) {
            std::string names;
            for (const auto* list : {&fatal, &partial})
                for (const auto& m : *list)
                    names += (names.empty() ? "" : ", ") + m.resolution->name;
            unloaded.push_back({shim.path, "cuDNN without " + names});
            continue;
        }
        if (!fatal.empty()) out.push_back(finding(stack, *set, shim, fatal, roots, true));
        if (!partial.empty()) out.push_back(finding(stack, *set, shim, partial, roots, false));
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
        .title = "A cuDNN sub-library the shim cannot load",
        .rationale =
            "libcudnn.so.9 is a shim: it links only the C and C++ runtimes and dlopen()s "
            "libcudnn_graph, libcudnn_engines_precompiled, libcudnn_engines_runtime_compiled, "
            "libcudnn_heuristic, libcudnn_ops, libcudnn_cnn and libcudnn_adv by name when an API "
            "needs them, searched from the shim (its RUNPATH $ORIGIN, LD_LIBRARY_PATH, the "
            "cache). A set with one missing passes import and the process starts; the first call "
            "that needs the missing one returns CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED. Each "
            "sub-library is resolved the way ld.so would from the shim. One a convolution needs "
            "(rules/cudnn.json sub_library_uses) is an error naming every framework or program "
            "that loads the shim; one only other APIs need (libcudnn_adv: RNN, CTC loss, "
            "multi-head attention) is a warning naming those APIs, and so is one whose use by a "
            "convolution is unknown (the runtime-compiled engines), without claiming that "
            "convolution works. A shim nothing the image runs "
            "loads is info. Sub-libraries of another release are CUV005.",
        .failing_example = "/opt/cudnn/lib/libcudnn.so.9\n/opt/cudnn/lib/libcudnn_graph.so.9\n"
                           "# libcudnn_cnn.so.9, libcudnn_ops.so.9, … deleted to save space\n"
                           "# → CUV019 … cannot load libcudnn_cnn.so.9 …: The first "
                           "convolution fails with CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED in "
                           "torch 2.11.0",
        .passing_example = "pip install nvidia-cudnn-cu12==9.1.0.70\n# every sub-library beside "
                           "libcudnn.so.9, found through its RUNPATH $ORIGIN",
        .fix = "Install cuDNN whole (the apt package, the pip wheel nvidia-cudnn-cuXX or NVIDIA's "
               "archive), never single files; do not delete sub-libraries to save space.",
        .name = "cudnn-sublibrary-missing",
    },
    &cuv019::run,
};

}  // namespace cuvet::checks
