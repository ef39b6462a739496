// CUV005 cudnn-mixed-sublibraries
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "check_util.hpp"
#include "checks.hpp"
#include "cudnn_acceptance.hpp"
#include "cuvet/rules/cudnn_sub_libraries.hpp"

namespace cuvet::checks {

namespace cuv005 {

// The mix ld.so makes at run time: cuDNN's libraries load each other by
// name (libcudnn_adv.so.9 needs libcudnn_graph.so.9; the main libcudnn.so.9
// dlopens them), and with LD_LIBRARY_PATH pointing at another cuDNN (it beats
// their RUNPATH $ORIGIN) some come from that other release, though every
// directory on its own is consistent. One finding per pair of installs.
// cuDNN 9 answers cudnnGetVersion() from libcudnn_graph (cudnn_graph.h), so a
// framework whose cuDNN loads another release's graph library sees that
// release: torch 2.11 with the pip 9.19 cuDNN and LD_LIBRARY_PATH to a dpkg
// 9.14 refused "(9, 14, 0)" on the H100. Its words, when it refuses it.
std::string framework_refusal(const Stack& stack, const rules::Database& db,
                              const std::string& root, const LibraryCopy& graph) {
    const auto* fw = util::framework_labelled(stack, root);
    if (fw == nullptr) return "";
    const auto* rule = db.cudnn_load_rule(fw->name);
    const auto built = util::built_cudnn(db, *fw);
    if (rule == nullptr || !built || !util::refuses(*graph.version, built->version, rule->rule))
        return "";
    const auto words = util::refusal(db, stack, *fw, built->version, *graph.version);
    return " " + fw->name + " " + fw->version.str() + " (built with cuDNN " + built->version.str() +
           ") then sees cuDNN " + graph.version->truncated(3).str() + " and refuses it" +
           (words ? ": \"" + words->text + "\"" : ".");
}

// What cuDNN returns when it meets a sub-library of another release (cuDNN 9: each
// sub-library checks its dependencies' version, cudnn_graph.h).
std::string refused_with(const rules::Database& db, int major) {
    for (const auto& set : rules::cudnn_sub_libraries(db))
        if (set.major == major && !set.version_mismatch_status.empty())
            return " The first call into one of another release returns " +
                   set.version_mismatch_status + ".";
    return "";
}

// The libraries of a mix not of the graph library's release, which cuDNN answers and checks
// against; empty when no graph library is among them (nothing to measure the mix by).
std::vector<const LibraryCopy*> odd_ones(
    const std::map<std::string, std::vector<const LibraryCopy*>>& by_version) {
    std::string reference;
    for (const auto& [version, list] : by_version)
        for (const auto* c : list)
            if (util::starts_with(c->soname, "libcudnn_graph.so")) reference = version;
    std::vector<const LibraryCopy*> out;
    if (reference.empty()) return out;
    for (const auto& [version, list] : by_version)
        if (version != reference) out.insert(out.end(), list.begin(), list.end());
    return out;
}

// Whether a root's convolution never opens an odd library: what the rules measured for its
// framework (`need`, set when known), else cuDNN's split, where a library of unknown use counts
// as needed. The main library is needed by every call.
bool spares(const Stack& stack, const rules::CudnnSubLibraries& set, const std::string& root,
            const std::vector<std::string>& files, const std::vector<const LibraryCopy*>& odd,
            const rules::CudnnConsumerNeed*& need) {
    need = nullptr;
    if (const auto* fw = util::framework_through(stack, root, files))
        need = set.need_of(fw->name, fw->version);
    for (const auto* c : odd) {
        const auto* use = set.use_of(c->soname);
        if (use == nullptr) return false;
        const bool needed = need != nullptr
                                ? std::count(need->convolution_opens.begin(),
                                             need->convolution_opens.end(), c->soname) > 0
                                : use->convolution != false;
        if (needed) return false;
    }
    return true;
}

// Roots of one mix whose convolution is spared, with the same reason.
struct Spared {
    const rules::CudnnConsumerNeed* need = nullptr;
    std::vector<std::string> roots;
};

// The warning for roots whose convolution the mix spares: the APIs of the odd libraries fail.
report::Finding spared_finding(report::Finding f, const rules::CudnnSubLibraries& set,
                               const std::vector<const LibraryCopy*>& odd, const Spared& spared) {
    f.id = "CUV005";  // a severity of its own choosing (registry.cpp)
    f.severity = report::Severity::warning;
    if (spared.need != nullptr) {
        f.message += " Convolution works: " + spared.need->framework + " calls cuDNN through " +
                     spared.need->api + ", whose convolution opens none of them; ";
        std::string opens;
        for (const auto& soname : spared.need->convolution_opens)
            opens += (opens.empty() ? "" : ", ") + soname;
        f.evidence.push_back(spared.need->framework + " " + spared.need->min_version.str() +
                             "'s convolution opens " + opens + ": " +
                             util::cite(spared.need->provenance));
    } else {
        f.message += " Convolution works; ";
    }
    std::vector<std::string> apis;
    for (const auto* c : odd)
        if (const auto* use = set.use_of(c->soname);
            use != nullptr && std::find(apis.begin(), apis.end(), use->serves) == apis.end()) {
            apis.push_back(use->serves);
            f.evidence.push_back(use->soname + " serves " + use->serves + ": " +
                                 util::cite(use->provenance));
        }
    for (std::size_t i = 0; i < apis.size(); ++i) f.message += (i ? " and " : "") + apis[i];
    f.message += " fail" + std::string(apis.size() == 1 ? "s" : "") + " there.";
    util::name_roots(f, spared.roots, true);
    return f;
}

// Each root is judged by what its own convolution opens, whichever way the mix arose (one
// directory's files, or LD_LIBRARY_PATH beating the RUNPATH): one error naming every root the
// mix breaks, one warning per reason for those it spares. Returns the broken roots.
std::vector<std::string> judge_per_root(const Stack& stack, const rules::Database& db, int major,
                                        const std::vector<std::string>& roots,
                                        const std::vector<std::string>& files,
                                        const std::vector<const LibraryCopy*>& odd,
                                        report::Finding f, std::vector<report::Finding>& out) {
    const auto& sets = rules::cudnn_sub_libraries(db);  // kept in db: outlives `set` below
    const rules::CudnnSubLibraries* set = nullptr;
    for (const auto& s : sets)
        if (s.major == major) set = &s;
    std::vector<std::string> broken;
    std::vector<Spared> spared;
    for (const auto& root : roots) {
        const rules::CudnnConsumerNeed* need = nullptr;
        if (set == nullptr || odd.empty() || !spares(stack, *set, root, files, odd, need)) {
            broken.push_back(root);
            continue;
        }
        auto it = std::find_if(spared.begin(), spared.end(),
                               [need](const Spared& s) { return s.need == need; });
        if (it == spared.end()) it = spared.insert(spared.end(), Spared{need, {}});
        it->roots.push_back(root);
    }
    for (const auto& s : spared) out.push_back(spared_finding(f, *set, odd, s));
    return broken;
}

// Does `dir` hold cuDNN's main library (libcudnn.so.N), the shim that opens the others?
bool has_shim(const Stack& stack, const std::string& dir) {
    for (const auto& copy : stack.libraries)
        if (copy.dir() == dir && util::base_name(copy.path).starts_with("libcudnn.so."))
            return true;
    return false;
}

void loaded_mix(const Stack& stack, const rules::Database& db, std::vector<report::Finding>& out,
                std::vector<util::UnloadedProblem>& unloaded) {
    struct Crossing {
        const ElfObject* object;
        const Resolution* resolution;
        const LibraryCopy* loaded;
    };
    std::map<std::pair<std::string, std::string>, std::vector<Crossing>> by_dirs;
    std::map<std::pair<std::string, std::string>, std::pair<std::string, std::string>> versions;
    for (const auto& o : stack.objects) {
        const auto* self = stack.library(o.file);
        if (self == nullptr || !util::starts_with(self->family, "cudnn") || !self->version ||
            self->version->size() < 3)
            continue;
        for (const auto& r : o.resolutions) {
            if (r.file.empty() || !util::starts_with(r.name, "libcudnn")) continue;
            const auto* loaded = stack.library(r.file);
            if (loaded == nullptr || !loaded->version || loaded->version->size() < 3) continue;
            if (loaded->version->truncated(3) == self->version->truncated(3)) continue;
            if (loaded->dir() == self->dir()) continue;  // one directory's mix: the check below
            // A library nothing the image runs maps mixes nothing: at most info.
            if (stack.root_of(o.file) == nullptr) {
                unloaded.push_back({o.path, "cuDNN " + self->version->truncated(3).str() + " -> " +
                                                r.name + " " + loaded->version->truncated(3).str() +
                                                " in " + loaded->dir()});
                continue;
            }
            auto key = std::pair{self->dir(), loaded->dir()};
            by_dirs[key].push_back({&o, &r, loaded});
            versions[key] = {self->version->truncated(3).str(),
                             loaded->version->truncated(3).str()};
        }
    }
    for (const auto& [dirs, crossings] : by_dirs) {
        // A lone sub-library of another release (no shim beside it) that finds the shim's
        // release already loaded is the odd part of the mix the shim's side reports, not a
        // second mix: cuDNN is the release of the libcudnn.so the process loaded.
        if (by_dirs.count({dirs.second, dirs.first}) != 0 && !has_shim(stack, dirs.first)) continue;
        const auto& [own, other] = versions[dirs];
        report::Finding f;
        f.message = "cuDNN " + own + " in " + dirs.first + " loads parts of cuDNN " + other +
                    " from " + dirs.second + " at run time:";
        std::vector<std::string> files;
        for (const auto& c : crossings) {
            if (files.size() < 4)
                f.message += " " + util::base_name(c.object->path) + " -> " + c.loaded->path +
                             " (via " + c.resolution->how_found() + ");";
            files.push_back(c.object->file);
        }
        if (crossings.size() > 4)
            f.message += " and " + std::to_string(crossings.size() - 4) + " more;";
        f.message.back() = '.';
        f.message += refused_with(db, crossings.front().loaded->version->major());
        for (const auto& c : crossings)
            if (f.locations.size() < 8) f.locations.push_back({c.object->path});
        util::add_trace(f, *crossings.front().resolution, 6);
        f.fix = "Let the cuDNN in " + dirs.first + " find its own libraries: drop " + dirs.second +
                " from LD_LIBRARY_PATH, or remove the other cuDNN from the image.";
        // The roots that map this cuDNN are what the mix may break ("imported by torch"); the
        // libraries loaded from the other release are the odd ones each root is judged by.
        std::vector<const LibraryCopy*> odd;
        for (const auto& c : crossings)
            if (std::find(odd.begin(), odd.end(), c.loaded) == odd.end()) odd.push_back(c.loaded);
        const auto broken = judge_per_root(stack, db, crossings.front().loaded->version->major(),
                                           util::roots_reaching(stack, files), files, odd, f, out);
        if (broken.empty()) continue;
        util::name_roots(f, broken, true);
        for (const auto& c : crossings)
            if (util::starts_with(c.resolution->name, "libcudnn_graph.so")) {
                f.message += framework_refusal(stack, db, broken.front(), *c.loaded);
                break;
            }
        out.push_back(std::move(f));
    }
}

std::vector<report::Finding> run(const Stack& stack, const rules::Database& db) {
    // One cuDNN install is one directory; sub-libraries must be from the same release.
    std::map<std::string, std::vector<const LibraryCopy*>> by_dir;
    for (const auto& copy : stack.libraries)
        if (util::starts_with(copy.family, "cudnn") && copy.version && copy.version->size() >= 3)
            by_dir[copy.dir()].push_back(&copy);
    std::vector<report::Finding> out;
    std::vector<util::UnloadedProblem> unloaded;
    for (const auto& [dir, copies] : by_dir) {
        std::map<int, std::vector<const LibraryCopy*>> by_major;
        for (const auto* c : copies) by_major[c->version->major()].push_back(c);
        for (const auto& [major, group] : by_major) {
            const auto* sonames = db.cudnn_sonames(major);
            if (sonames == nullptr || !sonames->sub_libraries_must_match) continue;
            std::map<std::string, std::vector<const LibraryCopy*>> by_version;
            for (const auto* c : group) by_version[c->version->truncated(3).str()].push_back(c);
            if (by_version.size() < 2) continue;
            std::vector<std::string> files;
            for (const auto* c : group) files.push_back(c->path);
            auto roots = util::roots_reaching(stack, files);
            if (roots.empty()) {
                std::string releases;
                for (const auto& [version, list] : by_version)
                    releases += (releases.empty() ? "" : " and ") + version;
                for (const auto* c : group)
                    unloaded.push_back(
                        {c->path, "cuDNN " + std::to_string(major) + " releases " + releases});
                continue;
            }
            report::Finding f;
            f.message = "cuDNN " + std::to_string(major) + " libraries of different releases in " +
                        dir + ":";
            for (const auto& [version, list] : by_version) {
                f.message += " " + version + " (";
                for (std::size_t i = 0; i < list.size(); ++i)
                    f.message += (i ? ", " : "") + util::base_name(list[i]->path);
                f.message += ");";
                for (const auto* c : list) f.locations.push_back({c->path});
            }
            f.message.back() = '.';
            f.message += refused_with(db, major);
            f.evidence.push_back(
                "cuDNN " + std::to_string(major) +
                " sub-libraries must come from one release: " + util::cite(sonames->provenance));
            auto newest = by_version.rbegin()->first;
            f.fix = "Reinstall every cuDNN " + std::to_string(major) + " library in " + dir +
                    " from one release (e.g. all " + newest + "): install the whole libcudnn" +
                    std::to_string(major) + " package or wheel instead of copying single files.";
            const auto broken =
                judge_per_root(stack, db, major, roots, files, odd_ones(by_version), f, out);
            if (broken.empty()) continue;
            util::name_roots(f, broken, true);
            out.push_back(std::move(f));
        }
    }
    loaded_mix(stack, db, out, unloaded);
    auto grouped =
        util::unloaded_findings("CUV005", unloaded, "is a cuDNN library mixed with another release",
                                "are cuDNN libraries mixed with another release",
                                "Nothing breaks while nothing loads them; install cuDNN from one "
                                "package before something does.");
    out.insert(out.end(), grouped.begin(), grouped.end());
    return out;
}

}  // namespace cuv005

const ValidateCheck cuv005_cudnn_mixed_sublibraries{
    CheckInfo{
        .id = "CUV005",
        .severity = report::Severity::error,
        .name = "cudnn-mixed-sublibraries",
    },
    &cuv005::run,
};

}  // namespace cuvet::checks
