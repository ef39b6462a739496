// CUV008 missing-symbols
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "check_util.hpp"
#include "checks.hpp"

namespace cuvet::checks {

namespace {

std::vector<report::Finding> run(const Stack& stack, const rules::Database&) {
    std::vector<report::Finding> out;
    for (const auto& o : stack.objects) {
        for (const auto& need : o.elf->version_needs) {
            const Resolution* r = nullptr;
            for (const auto& res : o.resolutions) if (res.name == need.file) r = &res;
            if (r == nullptr || r->file.empty()) continue;
            const auto* lib = stack.elf(r->file);
            // A library without version definitions only draws a warning from ld.so.
            if (lib == nullptr || lib->version_definitions.empty()) continue;
            std::vector<std::string> missing;
            for (const auto& v : need.versions) {
                if (util::starts_with(v, "GLIBC_")) continue;  // CUV012 judges those against the image glibc
                if (std::find(lib->version_definitions.begin(), lib->version_definitions.end(), v) == lib->version_definitions.end())
                    missing.push_back(v);
            }
            if (missing.empty()) continue;
            report::Finding f;
            std::string list;
            for (const auto& m : missing) list += (list.empty() ? "" : ", ") + m;
            f.message = o.path + " needs version " + list + " of " + need.file + " but the copy that loads, " + r->file +
                        ", does not define it: ld.so stops with \"version `" + missing.front() + "' not found\"";
            f.locations = {{o.path}, {r->file}};
            std::string defined;
            for (const auto& d : lib->version_definitions) defined += (defined.empty() ? "" : " ") + d;
            f.evidence.push_back(r->file + " defines: " + defined);
            util::add_trace(f, *r);
            f.fix = "Make " + need.file + " resolve to a copy that defines " + missing.front() +
                    " (the release " + o.path + " was linked against), or rebuild/reinstall " + o.path + " for the library the image has.";
            out.push_back(std::move(f));
        }
    }
    return out;
}

}  // namespace

const ValidateCheck cuv008_missing_symbols{
    CheckInfo{
        .id = "CUV008",
        .severity = report::Severity::error,
        .title = "Symbols a consumer imports that the library it will load does not export",
        .rationale = "The loader binds every undefined symbol (and every GLIBCXX_/CUDNN_ version it needs) to the libraries it mapped. A library of the right soname but an older release lacks newer entry points, and the process dies with \"undefined symbol: cudnnGetLibConfig\" or \"version `libcublasLt.so.12' not found\" at load time or, for lazy binding, at the first call.",
        .failing_example = "libonnxruntime_providers_cuda.so imports cublasLtMatmulAlgoGetHeuristic@libcublasLt.so.12\nthe image's libcublasLt.so.12 (12.0.1) does not define it\n# → CUV008",
        .passing_example = "libcublasLt.so.12 from CUDA 12.2 defines every symbol the provider imports",
        .fix = "Upgrade the library to at least the release the consumer was built against (its package pin), or install the consumer build made for the older library.",
        .name = "missing-symbols",
    },
    &run,
};

}  // namespace cuvet::checks
