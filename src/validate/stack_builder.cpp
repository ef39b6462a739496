// Stack from Analysis + loader: which files are consumers, what every
// consumer's CUDA-stack names resolve to, and every versioned copy with its
// owner. No judging here: versions are facts of the image; of the rules
// database only the names cuDNN dlopen()s are read (what loads, not what is wrong).
#include "cuvet/validate/stack_builder.hpp"

#include <algorithm>
#include <array>
#include <regex>
#include <set>

#include "by_name_dlopens.hpp"
#include "cuvet/core/cuda_libraries.hpp"
#include "cuvet/core/error.hpp"
#include "cuvet/core/path_text.hpp"
#include "cuvet/core/scan_limits.hpp"
#include "cuvet/frameworks/framework.hpp"
#include "cuvet/loader/driver_libs.hpp"
#include "cuvet/loader/loader.hpp"
#include "cuvet/rules/cudnn_sub_libraries.hpp"
#include "cuvet/rules/database.hpp"
#include "cuvet/rules/framework_catalog.hpp"
#include "cuvet/stack/loader_resolution.hpp"
#include "entry_start.hpp"
#include "framework_models.hpp"
#include "image_user.hpp"
#include "roots.hpp"

namespace cuvet::validate {

namespace {

using stack::ElfObject;
using stack::FrameworkInstall;
using stack::LibraryCopy;
using stack::Resolution;
using stack::Stack;

// "8.6.0" of "libcudnn.so.8.6.0"; "" for "libcudnn.so".
std::string file_version(std::string_view name) {
    auto at = name.find(".so.");
    return at == std::string_view::npos ? std::string() : std::string(name.substr(at + 4));
}

bool is_cuda_stack_name(std::string_view name) {
    return !cuda_family(name).empty() || loader::is_host_driver_library(name);
}

bool versioned(std::string_view name) {
    auto v = file_version(name);
    return !v.empty() && rules::Version::parse(v).has_value();
}

// The CUDA major a package names: "libcudnn8 8.6.0.163-1+cuda11.8", "nvidia_cudnn_cu12".
std::optional<int> package_cuda_major(const std::string& text) {
    static const std::regex pattern(R"((?:\+cuda|-cuda-|[_-]cu)(\d+))");
    std::smatch m;
    if (!std::regex_search(text, m, pattern)) return std::nullopt;
    std::string digits = m[1].str();
    // "cu118" (a torch-style variant) is 11.8; "cu12" and "cuda11.8" start with the major.
    if (digits.size() == 3 && m[0].str().starts_with("_cu")) digits = digits.substr(0, 2);
    if (digits.size() > 2) digits = digits.substr(0, 2);
    return std::stoi(digits);
}

struct ComponentIndex {
    std::map<std::string, const inventory::Component*> by_file;
    explicit ComponentIndex(const inventory::Inventory& inv) {
        for (const auto& c : inv.components)
            for (const auto& f : c.files) by_file.emplace(f, &c);
    }
};

void fill_owner(LibraryCopy& copy, const inventory::Component& c) {
    for (const auto& e : c.evidence) {
        copy.provenance.push_back(e.kind + " " + e.path +
                                  (e.detail.empty() ? "" : " (" + e.detail + ")") + ": " +
                                  e.version);
        if (e.kind == "dpkg" || e.kind == "dist-info" || e.kind == "conda-meta") {
            if (copy.owner.empty()) copy.owner = c.source + " " + e.detail;
            if (!copy.cuda_major) copy.cuda_major = package_cuda_major(e.detail);
        }
    }
}

// A wheel names only its main library's version (nvidia-cudnn-cu13 9.19.0.56
// for libcudnn.so.9); the sub-libraries beside it (libcudnn_graph.so.9, a bare
// soname) come from the same package, so they take its version.
void inherit_package_version(std::vector<LibraryCopy>& copies) {
    std::map<std::string, const LibraryCopy*> main_by_dir;
    for (const auto& c : copies)
        if (c.family == "cudnn" && c.version && c.version->size() >= 3 && !c.owner.empty())
            main_by_dir.emplace(c.dir(), &c);
    for (auto& c : copies) {
        if (!c.family.starts_with("cudnn_") || (c.version && c.version->size() >= 3)) continue;
        auto it = main_by_dir.find(c.dir());
        if (it == main_by_dir.end() ||
            (c.version && c.version->major() != it->second->version->major()))
            continue;
        c.version = it->second->version;
        c.owner = it->second->owner;
        c.cuda_major = it->second->cuda_major;
        c.provenance.push_back("same package as " + it->second->path + " (" + it->second->owner +
                               "): " + c.version->str());
    }
}

std::vector<LibraryCopy> library_copies(const inventory::Analysis& analysis) {
    ComponentIndex index(analysis.inventory);
    std::vector<LibraryCopy> out;
    for (const auto& [path, entry] : analysis.tree.entries()) {
        if (entry.type != image::FileType::regular) continue;
        if (path.find("/stubs/") != std::string::npos) continue;
        auto name = base_name(path);
        auto family = cuda_family(name);
        if (family.empty()) continue;
        LibraryCopy copy;
        copy.path = path;
        copy.family = family;
        if (auto it = analysis.elfs.find(path); it != analysis.elfs.end())
            copy.soname = it->second.soname;
        auto from_name = rules::Version::parse(file_version(name));
        const elf::ElfInfo* elf = nullptr;
        if (auto it = analysis.elfs.find(path); it != analysis.elfs.end()) elf = &it->second;
        // cuDNN 9's graph, ops and adv libraries state their release in .rodata; that is the
        // release cuDNN checks its sub-libraries against, whatever the file is called.
        auto constant = elf != nullptr ? rules::Version::parse(elf->cudnn_release) : std::nullopt;
        if (constant && constant->size() >= 3 &&
            (!from_name || from_name->major() == constant->major())) {
            copy.version = constant;
            copy.provenance.push_back("release constant in .rodata of " + path);
        } else if (from_name && from_name->size() >= 2) {
            copy.version = from_name;
            copy.provenance.push_back("file name " + path);
        }
        if (auto it = index.by_file.find(path); it != index.by_file.end()) {
            fill_owner(copy, *it->second);
            auto v = rules::Version::parse(it->second->version);
            // A package version completes a bare soname ("libcudnn.so.8" of
            // nvidia-cudnn-cu12 8.9.2.26).
            if (!copy.version && v && (!from_name || from_name->major() == v->major()))
                copy.version = v;
        }
        if (!copy.version && from_name) copy.version = from_name;
        out.push_back(std::move(copy));
    }
    inherit_package_version(out);
    return out;
}

std::vector<LibraryCopy> driver_copies(const inventory::Analysis& analysis, bool compat) {
    std::vector<LibraryCopy> out;
    for (const auto& [path, entry] : analysis.tree.entries()) {
        if (entry.type != image::FileType::regular && entry.type != image::FileType::symlink)
            continue;
        if (path.find("/stubs/") != std::string::npos) continue;
        auto name = base_name(path);
        if (!name.starts_with("lib") || name.find(".so") == std::string_view::npos) continue;
        bool in_compat = path.find("/compat/") != std::string::npos;
        if (in_compat != compat) continue;
        if (!loader::is_host_driver_library(name)) continue;
        // A link is the toolkit's soname link to a baked copy; report the data file only,
        // except compat, whose links are what the loader finds.
        if (entry.type == image::FileType::symlink && !compat) continue;
        LibraryCopy copy;
        copy.path = path;
        copy.family = std::string(name.substr(3, name.find(".so") - 3));
        copy.soname = std::string(name.substr(0, name.find(".so") + 3));
        copy.version = rules::Version::parse(file_version(name));
        out.push_back(std::move(copy));
    }
    return out;
}

// The framework an inventory component installs (the catalog's `install`); "" for others.
std::string framework_name(const std::string& component) {
    const auto* record = rules::builtin_framework_catalog().by_install(component);
    return record == nullptr ? "" : record->framework;
}

// A version tail without '+' that states the CUDA build, by the catalog spelling of the
// component's package (paddlepaddle-gpu 2.6.1.post120: ".post120"); "" when none does.
std::string cuda_build_tail(const inventory::Component& c) {
    auto package = c.attributes.find("package");
    if (package == c.attributes.end()) return "";
    const auto match = rules::builtin_framework_catalog().pip(package->second);
    if (!match) return "";
    const auto cuda = rules::FrameworkCatalog::local_version_cuda(*match, c.version);
    return cuda ? cuda->tail : "";
}

std::vector<FrameworkInstall> frameworks(const inventory::Analysis& analysis) {
    std::vector<FrameworkInstall> out;
    for (const auto& c : analysis.inventory.components) {
        if (c.category != "framework") continue;
        auto name = framework_name(c.name);
        if (name.empty()) continue;
        FrameworkInstall fw;
        fw.name = name;
        fw.model = frameworks::by_component(c.name);
        auto plus = c.version.find('+');
        auto release = c.version.substr(0, plus);
        if (plus != std::string::npos && c.version.substr(plus + 1).starts_with("cu"))
            fw.variant = c.version.substr(plus + 1);
        if (plus == std::string::npos) {
            // The variant as the builds name it: "post120".
            if (auto tail = cuda_build_tail(c); !tail.empty()) {
                release.resize(release.size() - tail.size());
                const bool dotted = tail.front() == '.';
                fw.variant = tail.substr(dotted ? 1 : 0);
                fw.variant_separator = dotted ? "." : "";
            }
        }
        auto version = rules::Version::parse(release);
        if (!version) continue;  // unknown stays unknown: no version, nothing to judge
        fw.version = *version;
        fw.root = c.location;
        if (auto it = c.attributes.find("cuda"); it != c.attributes.end())
            fw.built_cuda = rules::Version::parse(it->second);
        if (auto it = c.attributes.find("cudnn"); it != c.attributes.end())
            fw.built_cudnn = rules::Version::parse(it->second);
        for (const auto& e : c.evidence)
            fw.provenance.push_back(e.kind + " " + e.path + ": " + e.version);
        for (auto it = analysis.elfs.lower_bound(fw.root + "/");
             it != analysis.elfs.end() && it->first.starts_with(fw.root + "/"); ++it)
            fw.libraries.push_back(it->first);
        auto site = dir_name(fw.root);
        if (site.ends_with("-packages")) {
            for (auto it = analysis.tree.entries().lower_bound(site + "/nvidia/");
                 it != analysis.tree.entries().end() && it->first.starts_with(site + "/nvidia/");
                 ++it) {
                if (it->second.type == image::FileType::directory && it->first.ends_with("/lib"))
                    fw.bundled_library_dirs.push_back(it->first);
            }
        }
        attach_gpu_package(analysis.inventory, c, fw);
        out.push_back(std::move(fw));
    }
    return out;
}

bool wants_consumer(const std::string& path, const elf::ElfInfo& elf,
                    const std::vector<FrameworkInstall>& fws) {
    if (path.find("/stubs/") != std::string::npos) return false;
    for (const auto& n : elf.needed)
        if (is_cuda_stack_name(n)) return true;
    for (const auto& n : elf.dlopen_candidates)
        if (is_cuda_stack_name(n) && versioned(n)) return true;
    for (const auto& fw : fws)
        if (path.starts_with(fw.root + "/")) return true;
    auto at = path.find("-packages/");
    if (at != std::string::npos) {
        auto rest = std::string_view(path).substr(at + 10);
        auto first = rest.find('/');
        if (first != std::string_view::npos && rest.substr(first, 5) == "/lib/") return true;
    }
    return false;
}

// `root_label`: the root the graph starts from (null for a file resolved only
// so that its own problems can be reported as info).
void add_graph(const loader::Graph& graph,
               const std::map<std::string, std::set<std::string>>& dlopened,
               const inventory::Analysis& analysis, std::map<std::string, std::size_t>& seen,
               Stack& stack, const std::string* root_label) {
    for (std::size_t i = 0; i < graph.objects.size(); ++i) {
        const auto& o = graph.objects[i];
        if (o.host_provided || o.interpreter) continue;
        if (root_label != nullptr) stack.loaded_by.emplace(o.file, *root_label);
        if (!o.inspected) continue;
        auto elf = analysis.elfs.find(o.file);
        if (elf == analysis.elfs.end()) continue;
        auto [it, inserted] = seen.emplace(o.file, stack.objects.size());
        if (!inserted) {
            if (i == 0) stack.objects[it->second].consumer = true;
            continue;
        }
        ElfObject object;
        object.path = o.path;
        object.file = o.file;
        object.elf = &elf->second;
        object.consumer = i == 0;
        auto added = dlopened.find(o.file);
        for (auto index : o.needs) {
            const auto& r = graph.resolutions[index];
            bool from_dlopen = added != dlopened.end() && added->second.count(r.name) > 0;
            object.resolutions.push_back(stack::from_loader(r, from_dlopen));
        }
        stack.objects.push_back(std::move(object));
    }
}

// cuDNN's main library dlopen()s its sub-libraries by soname through its own
// RUNPATH (rules/cudnn.json: "libcudnn.so.9 … dlopens the rest"); it builds the
// names at run time, so its strings do not carry them. The ones beside it
// are resolved as its dlopen names, so what loads cuDNN loads the sub-libraries
// ld.so really finds (LD_LIBRARY_PATH beats that RUNPATH). A main library
// nothing else resolves is resolved on its own, for its problems as info.
void add_cudnn_dlopens(const inventory::Analysis& analysis, const rules::Database& db,
                       std::vector<std::string>& roots, std::vector<const std::string*>& labels,
                       loader::ExtraNeededByFile& extra,
                       std::map<std::string, std::set<std::string>>& dlopened) {
    const std::set<std::string> resolved(roots.begin(), roots.end());
    std::set<std::string> modelled;  // main libraries that dlopen() every sub-library
    for (const auto& set : rules::cudnn_sub_libraries(db)) modelled.insert(set.main);
    for (const auto& [path, elf] : analysis.elfs) {
        const rules::CudnnSonames* set = nullptr;
        for (const auto& s : db.cudnn_soname_sets())
            if (s.main == elf.soname && s.sub_libraries_must_match) set = &s;
        if (set == nullptr) continue;
        std::set<std::string> have(elf.needed.begin(), elf.needed.end());
        if (auto added = extra.find(path); added != extra.end()) {
            have.insert(added->second.before.begin(), added->second.before.end());
            have.insert(added->second.after.begin(), added->second.after.end());
        }
        // cuDNN 9's shim opens every sub-library by name when an API needs it, so each is
        // searched whether or not it sits beside it (a missing one is what CUV019 reports). For
        // a major without that model, one the install lacks is its packaging's business.
        const bool every_one = modelled.count(set->main) != 0;
        for (const auto& name : set->libraries) {
            if (name == set->main || have.count(name) ||
                (!every_one && !analysis.tree.entries().count(dir_name(path) + "/" + name)))
                continue;
            extra[path].after.push_back(name);
            dlopened[path].insert(name);
        }
        if (!resolved.count(path)) roots.push_back(path), labels.push_back(nullptr);
    }
}

// What a framework opens itself (JAX's plugin: cuDNN, cuBLAS… from the nvidia
// wheel dirs) is loaded by that framework, and so is what those files load.
void label_framework_loads(Stack& stack) {
    std::map<std::string_view, const ElfObject*> by_file;
    for (const auto& o : stack.objects) by_file.emplace(o.file, &o);
    for (const auto& fw : stack.frameworks) {
        const std::string label = "imported by " + std::string(base_name(fw.root));
        std::vector<std::string> queue;
        for (const auto& load : fw.loads)
            if (!load.resolution.file.empty() &&
                stack.loaded_by.emplace(load.resolution.file, label).second)
                queue.push_back(load.resolution.file);
        for (std::size_t i = 0; i < queue.size(); ++i) {
            auto it = by_file.find(queue[i]);
            if (it == by_file.end()) continue;
            for (const auto& r : it->second->resolutions)
                if (!r.file.empty() && stack.loaded_by.emplace(r.file, label).second)
                    queue.push_back(r.file);
        }
    }
}

// Of extension modules a package chooses among at import (alternative_modules), those whose
// DT_NEEDED do not all resolve are no roots while another of them loads: the package
// imports that one (mpi4py's MPI.openmpi…so with Open MPI present, MPI.mpich…so unused).
// When none loads, all stay roots: the import fails, and each says why.
void drop_unloaded_alternatives(std::vector<stack::Root>& roots, const loader::Loader& loader,
                                const loader::ImageFiles& files) {
    std::set<std::string> unloaded;
    for (const auto& [stem, paths] : alternative_modules(roots)) {
        if (paths.size() < 2) continue;
        std::vector<std::string> failing;
        for (const auto& path : paths) {
            const auto* entry = files.data_entry(path);
            bool loads = false;
            try {
                loads = entry != nullptr && loader.resolve(entry->path).ok();
            } catch (const LimitExceeded&) {
                throw;  // a limit ends the run (exit 3); skipping would judge a part unread
            } catch (const Error&) {
            }
            if (!loads) failing.push_back(path);
        }
        if (failing.size() < paths.size()) unloaded.insert(failing.begin(), failing.end());
    }
    std::erase_if(roots, [&](const stack::Root& r) { return unloaded.count(r.path) != 0; });
}

}  // namespace

std::string cuda_family(std::string_view name) {
    if (!name.starts_with("lib")) return "";
    auto so = name.find(".so");
    if (so == std::string_view::npos) return "";
    auto rest = name.substr(so + 3);
    if (!rest.empty() && (rest[0] != '.' || !versioned(name))) return "";
    auto stem = name.substr(3, so - 3);
    for (const auto& library : cuda_libraries()) {
        if (!library.stack_family) continue;
        const std::string_view prefix = library.stem;
        if (!stem.starts_with(prefix)) continue;
        auto tail = stem.substr(prefix.size());
        // libcudnn_ops_infer, libcublasLt, libnvinfer_plugin; not libcudart_static or
        // libnvrtc-builtins.
        if (tail.empty() || tail[0] == '_' || tail == "Lt" || tail == "w") {
            if (tail == "_static") return "";
            return std::string(stem);
        }
    }
    return "";
}

Stack build_stack(const inventory::Analysis& analysis, stack::Targets targets,
                  std::string image_name, const rules::Database* db, bool nvidia_start) {
    Stack stack;
    stack.image = std::move(image_name);
    stack.platform = analysis.info.config.platform;
    stack.nvidia_start = nvidia_start;
    for (const auto& kv : analysis.info.config.env) {
        auto eq = kv.find('=');
        if (eq != std::string::npos) stack.env[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    stack.elfs = &analysis.elfs;
    stack.unreadable_paths = analysis.tree.unreadable();
    stack.targets = std::move(targets);
    const auto files = analysis.files();

    for (const auto* c : analysis.inventory.find("glibc")) {
        stack.glibc_version = rules::Version::parse(c->version);
        if (stack.glibc_version) break;
    }
    // The toolkit /usr/local/cuda names; else any toolkit; else the runtime library's own version.
    std::string preferred;
    if (const auto* entry = files.data_entry("/usr/local/cuda/version.json"))
        preferred = dir_name(entry->path);
    for (const char* component : {"cuda-toolkit", "cudart"}) {
        for (const auto* c : analysis.inventory.find(component)) {
            auto v = rules::Version::parse(c->version);
            if (!v || v->size() < 2) continue;
            // Headers a framework bundles for its own compiler (the catalog's
            // bundled_headers): no runtime.
            if (rules::builtin_framework_catalog().in_bundled_headers(c->location)) continue;
            bool better = !stack.cuda_version || (!preferred.empty() && c->location == preferred);
            if (!better) continue;
            stack.cuda_version = v;
            stack.cuda_version_provenance.clear();
            for (const auto& e : c->evidence)
                stack.cuda_version_provenance.push_back(e.kind + " " + e.path + ": " + e.version);
        }
        if (stack.cuda_version) break;
    }

    stack.libraries = library_copies(analysis);
    stack.compat_libraries = driver_copies(analysis, true);
    stack.driver_libraries = driver_copies(analysis, false);
    stack.frameworks = frameworks(analysis);

    loader::Options options;
    options.runtime_start =
        nvidia_start ? loader::RuntimeStart::nvidia : loader::RuntimeStart::none;
    if (!analysis.info.config.working_dir.empty())
        options.working_dir = analysis.info.config.working_dir;
    if (const auto user = resolve_user(analysis.info.config.user, files);
        user.known && user.problem.empty() && user.uid != 0)
        options.open_denied = [user, tree = files.tree](const std::string& file) {
            return open_denied(user, *tree, file);
        };
    loader::Loader loader(files, options);

    stack.roots = find_roots(analysis, stack.frameworks);
    stack.entry_start = entry_start(analysis);
    drop_unloaded_alternatives(stack.roots, loader, files);
    // What is resolved: the roots (their closures are what loads), then every
    // other CUDA-stack consumer, whose problems are reported as info only.
    std::vector<std::string> roots;
    std::vector<const std::string*> labels;
    std::set<std::string> root_files;
    for (const auto& root : stack.roots) {
        const auto* entry = files.data_entry(root.path);
        if (entry == nullptr || !root_files.insert(entry->path).second) continue;
        roots.push_back(entry->path);
        labels.push_back(&root.label);
        // A root ld.so cannot even start from (another machine's file) is still what runs.
        stack.loaded_by.emplace(entry->path, root.label);
    }
    for (const auto& [path, elf] : analysis.elfs)
        if (!root_files.count(path) && wants_consumer(path, elf, stack.frameworks))
            roots.push_back(path), labels.push_back(nullptr);

    // The loader resolves dlopen names as DT_NEEDED of the object holding
    // them, after its own, and what a framework dlopen()s before importing a
    // module (CuPy's cuda-pathfinder) ahead of the module's own; the image's
    // ELF facts stay as they are, so the Stack shows each file's real
    // DT_NEEDED. A name the framework may do without counts as a dlopen: its
    // failure stops nothing.
    std::map<std::string, std::set<std::string>> dlopened;
    loader::ExtraNeededByFile extra;
    const auto imports = framework_import_models(analysis, stack.frameworks);
    for (const auto& root : roots) {
        const auto& elf = analysis.elfs.find(root)->second;
        std::set<std::string> have(elf.needed.begin(), elf.needed.end());
        for (const auto& name : elf.dlopen_candidates) {
            if (!is_cuda_stack_name(name) || !versioned(name) || have.count(name)) continue;
            extra[root].after.push_back(name);
            have.insert(name);
            dlopened[root].insert(name);
        }
        auto model = imports.find(root);
        if (model == imports.end()) continue;
        extra[root].before = model->second.preloads;
        dlopened[root].insert(model->second.preloads.begin(), model->second.preloads.end());
        dlopened[root].insert(model->second.optional.begin(), model->second.optional.end());
    }
    if (db != nullptr) add_cudnn_dlopens(analysis, *db, roots, labels, extra, dlopened);
    if (db != nullptr) add_by_name_dlopens(analysis, *db, roots, labels, extra, dlopened);
    std::map<std::string, std::size_t> seen;
    for (std::size_t i = 0; i < roots.size(); ++i) {
        try {
            add_graph(loader.resolve(roots[i], extra), dlopened, analysis, seen, stack, labels[i]);
        } catch (const LimitExceeded&) {
            throw;  // a limit ends the run (exit 3); skipping would judge a part unread
        } catch (const Error&) {
            // A root the loader cannot start from (not an object it can load) has nothing to
            // resolve.
        }
    }
    // Each object's own DT_NEEDED only: what a framework dlopen()s loads what
    // ld.so maps for it, not the names its dlopen strings could open later.
    model_framework_loads(analysis, loader, stack);
    label_framework_loads(stack);
    mark_lazily_imported_modules(stack);
    // A preload is found by path; say whose search it was.
    for (auto& object : stack.objects) {
        auto model = imports.find(object.file);
        if (model == imports.end()) continue;
        for (auto& r : object.resolutions)
            if (std::find(model->second.preloads.begin(), model->second.preloads.end(), r.name) !=
                model->second.preloads.end())
                r.loaded_by = model->second.preload_rule;
    }
    // Consumers first: reports list what the user ships before what it pulls in.
    std::stable_partition(stack.objects.begin(), stack.objects.end(),
                          [](const ElfObject& o) { return o.consumer; });
    return stack;
}

}  // namespace cuvet::validate
