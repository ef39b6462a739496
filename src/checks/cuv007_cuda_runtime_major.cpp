// CUV007 cuda-runtime-major
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "check_util.hpp"
#include "checks.hpp"

namespace cuvet::checks {

namespace cuv007 {

std::vector<report::Finding> run(const Stack& stack, const rules::Database& db) {
    std::vector<report::Finding> out;
    if (!stack.cuda_version) return out;
    int image_major = stack.cuda_version->major();
    for (const auto& fw : stack.frameworks) {
        const auto* row = util::build_row(db, fw);
        auto built = fw.built_cuda;
        std::string from = "the install's build info";
        if (!built && row && row->cuda) built = row->cuda, from = util::cite(row->provenance);
        if (!built || built->major() == image_major) continue;
        // A framework that finds its own runtime of its major (pip nvidia-* wheels) does not use
        // the image's.
        bool own_runtime = false, needs_runtime = false;
        for (const auto* o : util::objects_of(stack, fw))
            for (const auto& r : o->resolutions)
                if (auto major = db.cuda_major_for_soname(r.name);
                    major && *major == built->major()) {
                    needs_runtime = true;
                    own_runtime = own_runtime || (!r.path.empty() && !r.provided_by_host);
                }
        // A framework that opens its CUDA libraries itself (JAX's plugin, CuPy's cuda-pathfinder)
        // is judged by what it really finds: CUV015 reports what it does not.
        if (!fw.loads.empty()) continue;
        if (own_runtime) continue;
        util::ImportedBy by{out, fw};  // its import is what fails
        report::Finding f;
        f.message =
            fw.name + " " + fw.version_text() + " (" + fw.root + ") is built for CUDA " +
            built->str() + " but the image holds CUDA " + stack.cuda_version->str() +
            (needs_runtime ? " and no CUDA " + std::to_string(built->major()) + " runtime" : "");
        f.locations = {{fw.root}};
        f.evidence.push_back("built with CUDA " + built->str() + " per " + from);
        for (const auto& p : stack.cuda_version_provenance)
            f.evidence.push_back("image CUDA: " + p);
        std::string variant;
        for (const auto* other : db.framework_builds(fw.name, fw.version))
            if (other->cuda && other->cuda->major() == image_major && !other->variant.empty())
                variant = other->variant;
        f.fix = variant.empty()
                    ? "Use a base image with CUDA " + std::to_string(built->major()) + ".x, or a " +
                          fw.name + " build for CUDA " + std::to_string(image_major) + "."
                    : "Install the " + variant + " build of " + fw.name + " " + fw.version.str() +
                          " (matches the image's CUDA " + std::to_string(image_major) +
                          "), or use a base image with CUDA " + built->str() + ".";
        out.push_back(std::move(f));
    }
    return out;
}

}  // namespace cuv007

const ValidateCheck cuv007_cuda_runtime_major{
    CheckInfo{
        .id = "CUV007",
        .severity = report::Severity::error,
        .name = "cuda-runtime-major",
    },
    &cuv007::run,
};

}  // namespace cuvet::checks
