// CUV006 cudnn-cuda-major
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "check_util.hpp"
#include "checks.hpp"

namespace cuvet::checks {

namespace cuv006 {

// The CUDA major a cuDNN copy was built for: its package, else the CUDA
// sonames it or its sibling sub-libraries link (libcublasLt.so.11 → 11).
std::optional<int> cudnn_cuda_major(const Stack& stack, const LibraryCopy& copy,
                                    const rules::Database& db) {
    if (copy.cuda_major) return copy.cuda_major;
    for (const auto& other : stack.libraries) {
        if (other.dir() != copy.dir() || !util::starts_with(other.family, "cudnn")) continue;
        if (const auto* elf = stack.elf(other.path))
            for (const auto& n : elf->needed)
                if (auto major = db.cuda_major_for_soname(n)) return major;
    }
    return std::nullopt;
}

// The CUDA major of the runtime a consumer loads with it.
std::optional<std::pair<int, std::string>> runtime_major(const ElfObject& o,
                                                         const rules::Database& db) {
    for (const auto& r : o.resolutions)
        if (util::is_cudart(r.name) && !r.path.empty())
            if (auto major = db.cuda_major_for_soname(r.name)) return std::pair{*major, r.path};
    return std::nullopt;
}

std::vector<report::Finding> run(const Stack& stack, const rules::Database& db) {
    std::vector<report::Finding> out;
    std::vector<util::UnloadedProblem> unloaded;
    for (const auto& copy : stack.libraries) {
        if (copy.family != "cudnn") continue;
        auto built = cudnn_cuda_major(stack, copy, db);
        if (!built) continue;
        report::Finding f;
        std::vector<std::string> files = {copy.path};
        for (const auto& o : stack.objects) {
            if (!o.consumer) continue;
            bool loads = false;
            for (const auto& r : o.resolutions) loads = loads || r.file == copy.path;
            auto runtime = loads ? runtime_major(o, db) : std::nullopt;
            if (!runtime || runtime->first == *built) continue;
            files.push_back(o.file);
            if (f.message.empty()) {
                f.message = util::describe(copy) + " is built for CUDA " + std::to_string(*built) +
                            " but " + o.path + " loads it together with the CUDA " +
                            std::to_string(runtime->first) + " runtime " + runtime->second;
                f.locations = {{copy.path}};
            }
            f.locations.push_back({o.path});
        }
        if (f.message.empty() && stack.cuda_version && stack.cuda_version->major() != *built) {
            f.message = util::describe(copy) + " is built for CUDA " + std::to_string(*built) +
                        " but the image's CUDA is " + stack.cuda_version->str();
            f.locations = {{copy.path}};
            for (const auto& p : stack.cuda_version_provenance)
                f.evidence.push_back("image CUDA: " + p);
        }
        if (f.message.empty()) continue;
        // Only a cuDNN something the image runs loads meets a runtime; the rest is info, grouped.
        const auto roots = util::roots_loading(stack, files);
        if (roots.empty()) {
            unloaded.push_back({copy.path, "cuDNN for CUDA " + std::to_string(*built)});
            continue;
        }
        util::name_roots(f, roots);
        for (const auto& p : copy.provenance) f.evidence.push_back(copy.path + ": " + p);
        int want = stack.cuda_version ? stack.cuda_version->major() : *built;
        f.fix = "Install the cuDNN build for CUDA " + std::to_string(want) + " instead (pip " +
                util::pip_package("cudnn", want) + ", or the libcudnn package with +cuda" +
                std::to_string(want) + ".x), or use a base image whose CUDA major is " +
                std::to_string(*built) + ".";
        out.push_back(std::move(f));
    }
    auto grouped = util::unloaded_findings(
        "CUV006", unloaded, "is a cuDNN for another CUDA major than the image's",
        "are cuDNN builds for another CUDA major than the image's",
        "Nothing breaks while nothing loads them; install the cuDNN build for the image's CUDA "
        "major before something does.");
    out.insert(out.end(), grouped.begin(), grouped.end());
    return out;
}

}  // namespace cuv006

const ValidateCheck cuv006_cudnn_cuda_major{
    CheckInfo{
        .id = "CUV006",
        .severity = report::Severity::error,
        .name = "cudnn-cuda-major",
    },
    &cuv006::run,
};

}  // namespace cuvet::checks
