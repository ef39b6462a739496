// CUV001 unresolved-soname
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "check_util.hpp"
#include "checks.hpp"
#include "cuvet/frameworks/framework.hpp"
#include "links_judged_elsewhere.hpp"

namespace cuvet::checks {

namespace cuv001 {

// The same missing name is one finding, listing every consumer that needs it.
bool another_dlopen_resolved(const ElfObject& o, const Resolution& missing) {
    // Frameworks carry several dlopen names for one library (libcudnn.so.8 and .9); one is enough.
    auto family = missing.name.substr(0, missing.name.find(".so"));
    for (const auto& r : o.resolutions)
        if (r.from_dlopen && ((!r.path.empty() && !r.error) || r.provided_by_host) &&
            util::starts_with(r.name, family + ".so"))
            return true;
    return false;
}

// Files of the image that carry `name` (as SONAME or file name): the library
// exists, only not where ld.so looks from this object.
std::vector<std::string> copies_named(const Stack& stack, const std::string& name) {
    std::vector<std::string> out;
    for (const auto& [path, elf] : *stack.elfs) {
        if (elf.soname == name || util::base_name(path) == name) out.push_back(path);
        if (out.size() == 3) break;
    }
    return out;
}

// What the framework that needs a cuDNN library prints without it, for its release
// (rules error_texts): TensorFlow 2.11 "Could not load dynamic library 'libcudnn.so.8'…".
std::string framework_words(const Stack& stack, const rules::Database& db,
                            const std::string& loaded_by, const std::string& name) {
    if (!util::starts_with(name, "libcudnn")) return "";
    const auto* fw = util::framework_labelled(stack, loaded_by);
    if (fw == nullptr) return "";
    rules::MessageValues values;
    values.library = name;
    auto words = util::framework_says(db, *fw, "cudnn_library_missing", values);
    return words ? "; " + fw->name + " " + fw->version.str() + " prints \"" + words->text + "\""
                 : "";
}

// What importing the framework a root belongs to raises when `name` is missing, in its own
// words (Framework::import_error); "" for other roots, or where its words are not known.
std::string framework_import_error(const Stack& stack, const std::string& loaded_by,
                                   const std::string& name) {
    const auto* fw = util::framework_labelled(stack, loaded_by);
    if (fw == nullptr || fw->model == nullptr || fw->model->import_error == nullptr) return "";
    const auto words = fw->model->import_error(stack, *fw, name);
    return words.empty() ? "" : "; " + words;
}

// File → the frameworks whose import maps it: each framework's files and their whole
// DT_NEEDED closure. A file's root (loaded_by) is only the first root that maps it; a
// library torch needs through libtorch_cuda.so is torch's problem too when CuPy maps it first.
std::map<std::string, std::vector<std::string>, std::less<>> framework_closures(
    const Stack& stack) {
    std::map<std::string, std::vector<std::string>, std::less<>> out;
    for (const auto& fw : stack.frameworks) {
        const auto label = util::import_label(fw);
        const auto objects = util::objects_of(stack, fw);
        auto files = util::load_closure(stack, objects, false);
        for (const auto* o : objects) files.push_back(o->file);
        for (const auto& file : files) {
            auto& labels = out[file];
            if (std::find(labels.begin(), labels.end(), label) == labels.end())
                labels.push_back(label);
        }
    }
    return out;
}

// Libraries found only through the cache ldconfig writes at an NVIDIA start (the image's own
// /etc/ld.so.cache is stale or absent for them): info, one finding per directory, so a user who
// runs the image without the toolkit learns why it would fail there.
std::vector<report::Finding> start_findings(const Stack& stack) {
    struct Dir {
        std::vector<std::string> names, roots;
        std::string note;
        const Resolution* first = nullptr;
    };
    std::map<std::string, Dir> by_dir;
    for (const auto& o : stack.objects) {
        const auto* root = stack.root_of(o.file);
        for (const auto& r : o.resolutions) {
            const std::string& note = r.start_note;
            if (note.empty() || r.path.empty()) continue;
            auto& d = by_dir[util::dir_name(r.path)];
            if (d.first == nullptr) d.first = &r, d.note = note;
            if (std::find(d.names.begin(), d.names.end(), r.name) == d.names.end())
                d.names.push_back(r.name);
            if (root && std::find(d.roots.begin(), d.roots.end(), *root) == d.roots.end())
                d.roots.push_back(*root);
        }
    }
    std::vector<report::Finding> out;
    for (const auto& [dir, d] : by_dir) {
        if (d.roots.empty()) continue;  // nothing the image runs maps them
        report::Finding f;
        f.id = "CUV001";
        f.severity = report::Severity::info;
        std::string names;
        for (std::size_t i = 0; i < d.names.size() && i < 6; ++i)
            names += (i ? ", " : "") + d.names[i];
        if (d.names.size() > 6) names += ", …";
        f.message =
            names + " from " + dir +
            " load only because the NVIDIA container runtime runs ldconfig at start: " + d.note;
        f.locations.push_back({dir});
        util::add_trace(f, *d.first);
        util::name_roots(f, d.roots);
        f.fix =
            "Run ldconfig in the image's last layer (RUN ldconfig) so that /etc/ld.so.cache "
            "matches " +
            std::string("/etc/ld.so.conf.d, or put ") + dir + " on LD_LIBRARY_PATH.";
        out.push_back(std::move(f));
    }
    return out;
}

// A DT_NEEDED of a module imported only on first use of one API: that API fails, nothing else.
report::Finding lazy_finding(const ElfObject& o, const Resolution& r, const std::string& api,
                             const std::string& root) {
    report::Finding f;
    f.id = "CUV001";
    f.severity = report::Severity::warning;
    f.loaded_by = root;
    f.message = r.name + " is needed by " + o.path +
                ", which is imported only at the first use of " + api +
                ": that call raises ImportError (\"" + r.name +
                ": cannot open shared object file\"); the import and everything else work";
    f.locations.push_back({o.path});
    util::add_trace(f, r);
    f.fix = "Install the package that ships " + r.name + " if the program uses " + api + ".";
    return f;
}

std::vector<report::Finding> run(const Stack& stack, const rules::Database& db) {
    std::vector<report::Finding> lazily_needed;
    std::map<std::string, report::Finding> by_name;
    std::map<std::string, std::vector<std::string>> roots_of_name;
    std::map<std::string, std::string> missing_name;
    std::vector<std::string> order;
    std::vector<util::UnloadedProblem> unloaded;
    const auto closures = framework_closures(stack);
    const LinksJudgedElsewhere judged_elsewhere(db);
    for (const auto& o : stack.objects) {
        // A file nothing the image runs maps fails only when something loads it
        // on its own (an optional transport, libcusolverMg beside the libcusolver torch uses).
        const auto* root = stack.root_of(o.file);
        for (const auto& r : o.resolutions) {
            if ((!r.path.empty() && !r.error) || r.provided_by_host) continue;
            if (r.from_dlopen && another_dlopen_resolved(o, r)) continue;
            if (judged_elsewhere.owns(o, r)) continue;
            if (root != nullptr && !r.from_dlopen && !o.imported_on_first_use_of.empty()) {
                lazily_needed.push_back(lazy_finding(o, r, o.imported_on_first_use_of, *root));
                continue;
            }
            // A file ld.so finds but refuses (empty, text, another byte order) ends the search:
            // ld.so reports it and stops, it never goes on to a copy elsewhere.
            const auto elsewhere = r.error || !r.denied.empty() ? std::vector<std::string>{}
                                                                : copies_named(stack, r.name);
            const std::string refused =
                !r.hang.empty() ? " but ld.so cannot load " + r.path + ": it is " + r.hang
                : r.error       ? " but ld.so cannot load " + r.path +
                                ": it is not an ELF file ld.so accepts (\"invalid ELF header\", "
                                "\"file too short\", a directory, a device node…), and the load "
                                "stops there"
                          : "";
            if (root == nullptr) {
                unloaded.push_back(
                    {o.path,
                     r.name + (!refused.empty()    ? " (" + r.path + " is not a loadable ELF file)"
                               : elsewhere.empty() ? ""
                                                   : " (the image has it at " + elsewhere.front() +
                                                         ", outside that object's search path)")});
                continue;
            }
            // A dlopen() that may fail apart from a DT_NEEDED that must not: never one finding.
            auto [it, inserted] = by_name.try_emplace(r.name + (r.from_dlopen ? " (dlopen)" : ""));
            report::Finding& f = it->second;
            if (inserted) {
                order.push_back(it->first);
                // A dlopen() failure does not stop the process: the framework falls back or fails
                // later.
                if (r.from_dlopen) f.severity = report::Severity::warning, f.id = "CUV001";
                f.loaded_by = *root;
                f.message = r.name + (r.from_dlopen ? " (dlopen()ed)" : "") + " is needed by " +
                            o.path +
                            (!refused.empty()    ? refused
                             : !r.denied.empty() ? " but ld.so cannot open it: " + r.denied
                             : elsewhere.empty()
                                 ? " but nothing in the image provides it"
                                 : " but ld.so does not find it from there: the image has it at " +
                                       elsewhere.front() + ", outside that object's search path") +
                            framework_words(stack, db, *root, r.name);
                missing_name[it->first] = r.name;
                for (const auto& copy : elsewhere)
                    f.evidence.push_back("a copy not on the search path: " + copy);
                util::add_trace(f, r);
                bool cuda_stack = util::starts_with(r.name, "libcu") ||
                                  util::starts_with(r.name, "libnv") ||
                                  util::starts_with(r.name, "libnccl");
                f.fix =
                    (!r.denied.empty()
                         ? "Make it readable for the image's USER (chmod a+r, or chown it to "
                           "that user) and its directories searchable (chmod a+x), or run as a "
                           "USER that can read it; "
                         : std::string()) +
                    (r.error ? "Replace " + r.path +
                                   " with the real library (a git-lfs pointer, an empty or a "
                                   "foreign file stands in for it); "
                             : std::string()) +
                    "Install the package that ships " + r.name +
                    (cuda_stack ? " (the pip wheel " +
                                      util::pip_package(r.name.substr(3, r.name.find(".so") - 3),
                                                        std::nullopt) +
                                      "-cuXX, the matching apt package, or a -cudnn/-runtime "
                                      "nvidia/cuda base image)"
                                : std::string()) +
                    ", or put the directory holding it on " + o.path +
                    "'s RUNPATH or on LD_LIBRARY_PATH.";
            } else if (f.locations.size() < 8) {
                f.evidence.push_back("also needed by " + o.path);
            }
            if (f.locations.size() < 8) f.locations.push_back({o.path});
            auto& roots = roots_of_name[it->first];
            if (std::find(roots.begin(), roots.end(), *root) == roots.end()) roots.push_back(*root);
            if (auto c = closures.find(o.file); c != closures.end())
                for (const auto& label : c->second)
                    if (std::find(roots.begin(), roots.end(), label) == roots.end())
                        roots.push_back(label);
        }
    }
    std::vector<report::Finding> out;
    for (const auto& key : order) {
        auto& f = by_name[key];
        const auto& roots = roots_of_name[key];
        util::name_roots(f, roots, true);
        // What the framework's import raises, whichever root the finding names first.
        if (!key.ends_with(" (dlopen)"))
            for (const auto& label : roots)
                if (auto quote = framework_import_error(stack, label, missing_name[key]);
                    !quote.empty()) {
                    f.message += quote;
                    break;
                }
        out.push_back(std::move(f));
    }
    out.insert(out.end(), lazily_needed.begin(), lazily_needed.end());
    auto started = start_findings(stack);
    out.insert(out.end(), started.begin(), started.end());
    auto grouped =
        util::unloaded_findings("CUV001", unloaded, "needs a library ld.so does not find from it",
                                "need libraries ld.so does not find from them",
                                "Nothing breaks while nothing loads them; install the missing "
                                "library before something does.");
    out.insert(out.end(), grouped.begin(), grouped.end());
    return out;
}

}  // namespace cuv001

const ValidateCheck cuv001_unresolved_soname{
    CheckInfo{
        .id = "CUV001",
        .severity = report::Severity::error,
        .name = "unresolved-soname",
    },
    &cuv001::run,
};

}  // namespace cuvet::checks
