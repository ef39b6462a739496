// CUV008 missing-symbols
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "check_util.hpp"
#include "checks.hpp"
#include "cuvet/core/cuda_libraries.hpp"

namespace cuvet::checks {

namespace cuv008 {

// The library a CUDA-stack symbol comes from, by its API prefix ("cudnnCreate"
// -> "libcudnn"). Other names are not judged: the program, libc or a library
// loaded earlier may provide them. Driver API names (cuInit) are left out:
// the host provides libcuda. The prefixes are cuda_libraries()'s.
std::string_view api_library(std::string_view symbol) {
    static const std::vector<std::string> file_names = [] {
        std::vector<std::string> out;
        for (const auto& library : cuda_libraries())
            out.push_back("lib" + std::string(library.stem));
        return out;
    }();
    const auto libraries = cuda_libraries();
    for (std::size_t i = 0; i < libraries.size(); ++i) {
        const std::string_view prefix = libraries[i].api;
        if (prefix.empty() || !util::starts_with(symbol, prefix) || symbol.size() == prefix.size())
            continue;
        // cudaMalloc, cudnnCreate, cublasLtMatmul: the API prefix is followed by an upper-case
        // letter.
        const char next = symbol[prefix.size()];
        if (next >= 'A' && next <= 'Z') return file_names[i];
    }
    return {};
}

bool names_library(std::string_view soname, std::string_view library) {
    if (!util::starts_with(soname, library)) return false;
    const char next = soname.size() > library.size() ? soname[library.size()] : '\0';
    return next == '.' ||
           next == '_';  // libcudnn.so.9, libcudnn_ops.so.9; not libcublasLt for libcublas
}

bool exports(const elf::ElfInfo& lib, const std::string& symbol) {
    return std::binary_search(lib.exported_symbols.begin(), lib.exported_symbols.end(), symbol);
}

// A finding and its short cause for the grouped info when nothing loads the file.
struct Problem {
    report::Finding finding;
    std::string detail;
};

// Undefined CUDA-stack symbols of `o` that no library it maps defines: the
// right soname from an older release ("undefined symbol: cudnnGetLibConfig").
void check_symbols(const Stack& stack, const ElfObject& o, std::vector<Problem>& out) {
    const auto& weak = o.elf->weak_imported_symbols;
    std::map<std::string_view, std::vector<std::string>> missing_by_library;
    std::vector<std::string> closure;
    bool closure_known = false;
    for (const auto& symbol : o.elf->imported_symbols) {
        const auto library = api_library(symbol);
        if (library.empty() || std::binary_search(weak.begin(), weak.end(), symbol)) continue;
        const bool needs_it =
            std::any_of(o.resolutions.begin(), o.resolutions.end(), [&](const Resolution& r) {
                return !r.from_dlopen && !r.file.empty() && names_library(r.name, library);
            });
        if (!needs_it) continue;
        if (!closure_known) closure = util::load_closure(stack, {&o}, false), closure_known = true;
        const bool defined =
            std::any_of(closure.begin(), closure.end(), [&](const std::string& file) {
                const auto* lib = stack.elf(file);
                return lib != nullptr && exports(*lib, symbol);
            });
        if (!defined) missing_by_library[library].push_back(symbol);
    }
    for (const auto& [library, missing] : missing_by_library) {
        // A needed library of the same family that does not load is the cause (CUV001, or CUV019
        // for cuDNN 9's sub-libraries: libcudnn_cnn needs libcudnn_ops): its symbols are not
        // a second problem.
        const std::string_view family = library;  // clang 14 cannot capture a structured binding
        const bool sibling_missing =
            std::any_of(o.resolutions.begin(), o.resolutions.end(), [&](const Resolution& res) {
                return !res.from_dlopen && (res.path.empty() || res.error) &&
                       !res.provided_by_host && names_library(res.name, family);
            });
        if (sibling_missing) continue;
        const Resolution* r = nullptr;
        for (const auto& res : o.resolutions)
            if (!res.from_dlopen && !res.file.empty() && names_library(res.name, library))
                r = r ? r : &res;
        const auto* copy = stack.library(r->file);
        std::string list;
        constexpr std::size_t shown = 8;
        for (std::size_t i = 0; i < missing.size() && i < shown; ++i)
            list += (i ? ", " : "") + missing[i];
        if (missing.size() > shown)
            list += " and " + std::to_string(missing.size() - shown) + " more";
        report::Finding f;
        f.message = o.path + " imports " + list + " but " + r->name + " resolves to " +
                    (copy ? util::describe(*copy) : r->file) + ", which does not define " +
                    (missing.size() == 1 ? "it" : "them") +
                    ": the process dies with \"undefined symbol: " + missing.front() +
                    "\" (at load time, or at the first call with lazy binding)";
        f.locations = {{o.path}, {r->file}};
        f.evidence.push_back(std::to_string(missing.size()) + " undefined " + std::string(library) +
                             " symbol(s) of " + o.path +
                             " are defined by none of the libraries it maps");
        util::add_trace(f, *r);
        f.fix = "Install the " + std::string(library) + " release " + o.path +
                " was built against (its package pin) so that " + r->name +
                " resolves to a copy that exports " + missing.front() + ", or use a build of " +
                o.path + " made for the release the image has.";
        out.push_back({std::move(f), "undefined " + missing.front()});
    }
}

// Symbol versions `o` needs that the library it maps does not define.
void check_versions(const Stack& stack, const ElfObject& o, std::vector<Problem>& out) {
    for (const auto& need : o.elf->version_needs) {
        const Resolution* r = nullptr;
        for (const auto& res : o.resolutions)
            if (res.name == need.file) r = &res;
        if (r == nullptr || r->file.empty()) continue;
        const auto* lib = stack.elf(r->file);
        // A library without version definitions only draws a warning from ld.so.
        if (lib == nullptr || lib->version_definitions.empty()) continue;
        std::vector<std::string> missing;
        for (const auto& v : need.versions) {
            if (util::starts_with(v, "GLIBC_"))
                continue;  // CUV012 judges those against the image glibc
            if (std::find(lib->version_definitions.begin(), lib->version_definitions.end(), v) ==
                lib->version_definitions.end())
                missing.push_back(v);
        }
        if (missing.empty()) continue;
        report::Finding f;
        std::string list;
        for (const auto& m : missing) list += (list.empty() ? "" : ", ") + m;
        f.message = o.path + " needs version " + list + " of " + need.file +
                    " but the copy that loads, " + r->file +
                    ", does not define it: ld.so stops with \"version `" + missing.front() +
                    "' not found\"";
        f.locations = {{o.path}, {r->file}};
        std::string defined;
        for (const auto& d : lib->version_definitions) defined += (defined.empty() ? "" : " ") + d;
        f.evidence.push_back(r->file + " defines: " + defined);
        util::add_trace(f, *r);
        f.fix = "Make " + need.file + " resolve to a copy that defines " + missing.front() +
                " (the release " + o.path + " was linked against), or rebuild/reinstall " + o.path +
                " for the library the image has.";
        out.push_back({std::move(f), missing.front() + " of " + need.file});
    }
}

std::vector<report::Finding> run(const Stack& stack, const rules::Database&) {
    std::vector<report::Finding> out;
    std::vector<util::UnloadedProblem> unloaded;
    for (const auto& o : stack.objects) {
        std::vector<Problem> problems;
        check_symbols(stack, o, problems);
        check_versions(stack, o, problems);
        const auto* root = stack.root_of(o.file);
        for (auto& p : problems) {
            if (root == nullptr) {
                unloaded.push_back({o.path, p.detail});
                continue;
            }
            p.finding.loaded_by = *root;
            out.push_back(std::move(p.finding));
        }
    }
    auto grouped = util::unloaded_findings("CUV008", unloaded,
                                           "lacks symbols it imports from the libraries it maps",
                                           "lack symbols they import from the libraries they map",
                                           "Nothing breaks while nothing loads them.");
    out.insert(out.end(), grouped.begin(), grouped.end());
    return out;
}

}  // namespace cuv008

const ValidateCheck cuv008_missing_symbols{
    CheckInfo{
        .id = "CUV008",
        .severity = report::Severity::error,
        .name = "missing-symbols",
    },
    &cuv008::run,
};

}  // namespace cuvet::checks
