// CUV010 no-kernel-for-gpu
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "check_util.hpp"
#include "checks.hpp"
#include "cuvet/stack/stack_facts.hpp"

namespace cuvet::checks {

namespace cuv010 {

// SASS runs on the same major with an equal or higher minor; PTX is JIT-compiled for anything
// newer.
bool runs_on(const elf::ElfInfo& elf, int sm) {
    for (int s : elf.sass_archs)
        if (s / 10 == sm / 10 && s <= sm) return true;
    for (int p : elf.ptx_archs)
        if (p <= sm) return true;
    return false;
}

std::string arch_list(const std::vector<int>& archs, const char* prefix) {
    std::string out;
    for (int a : archs) out += (out.empty() ? "" : " ") + std::string(prefix) + std::to_string(a);
    return out.empty() ? "none" : out;
}

// The image's CUDA release dropped the GPU: none of the toolkit's own
// libraries has code for it any more (CUDA 13 on a V100).
std::optional<report::Finding> release_dropped(const Stack& stack, const rules::GpuArch& gpu,
                                               const std::string& name) {
    if (!stack.cuda_version || gpu.still_supported || !gpu.last_cuda) return std::nullopt;
    const rules::Version& cuda = *stack.cuda_version;
    const rules::Version& last = *gpu.last_cuda;
    if (cuda.major() < last.major() ||
        (cuda.major() == last.major() && cuda.minor() <= last.minor()))
        return std::nullopt;
    report::Finding f;
    f.message = "The image's CUDA " + cuda.str() + " no longer supports " + name + " (" +
                gpu.architecture + ", compute capability " + gpu.compute_capability.str() +
                "): the last CUDA release for it is " + last.str() +
                ", so cuBLAS, cuDNN and the framework's kernels have no code for it";
    f.evidence.push_back(name + ": last CUDA " + last.str() + " per " + util::cite(gpu.provenance));
    for (const auto& p : stack.cuda_version_provenance) f.evidence.push_back("image CUDA: " + p);
    f.fix = "Run this image on newer GPUs only, or build the " + name + " variant from a CUDA " +
            last.str() + " base image with a framework build for CUDA " +
            std::to_string(last.major()) + ".";
    return f;
}

std::vector<report::Finding> run(const Stack& stack, const rules::Database& db) {
    std::vector<report::Finding> out;
    if (stack.targets.gpus.empty() || stack.elfs == nullptr) return out;
    // NVIDIA's own libraries are judged by their release (release_dropped),
    // not by their fatbins: libcufft keeps its kernels outside .nv_fatbin and
    // libcufftw's .nv_fatbin holds one sm_75 stub (seen on CUDA 13.0 and in
    // the cu13 wheels), which would read as "no kernel" on every other GPU.
    std::set<std::string_view> nvidia_libraries;
    for (const auto& copy : stack.libraries) nvidia_libraries.insert(copy.path);
    for (const auto& name : stack.targets.gpus) {
        const auto* gpu = db.gpu(name);
        if (gpu == nullptr) continue;
        const auto pools = pools_with_gpu(stack.targets, name);
        const std::string on_pools =
            pools.empty() ? "" : "; node pools that cannot run it: " + pools;
        if (auto dropped = release_dropped(stack, *gpu, name)) {
            dropped->message += on_pools;
            out.push_back(std::move(*dropped));
            continue;  // every file would repeat it
        }
        int sm = gpu->sm();
        std::vector<util::UnloadedProblem> unloaded;
        for (const auto& [path, elf] : *stack.elfs) {
            if (!elf.has_fatbin || (elf.sass_archs.empty() && elf.ptx_archs.empty()) ||
                runs_on(elf, sm))
                continue;
            if (nvidia_libraries.count(path) != 0) continue;
            const auto* root = stack.root_of(path);
            if (root == nullptr) {
                unloaded.push_back({path, "SASS " + arch_list(elf.sass_archs, "sm_") + ", PTX " +
                                              arch_list(elf.ptx_archs, "compute_")});
                continue;
            }
            report::Finding f;
            f.loaded_by = *root;
            f.message = path + " has GPU code for SASS " + arch_list(elf.sass_archs, "sm_") +
                        ", PTX " + arch_list(elf.ptx_archs, "compute_") +
                        " but none that runs on " + name + " (sm_" + std::to_string(sm) +
                        "): \"no kernel image is available for execution on the device\"" +
                        on_pools;
            f.locations = {{path}};
            f.evidence.push_back(name + " is compute capability " + gpu->compute_capability.str() +
                                 " (" + gpu->architecture + "): " + util::cite(gpu->provenance));
            f.fix = "Rebuild with -gencode arch=compute_" + std::to_string(sm) + ",code=sm_" +
                    std::to_string(sm) + " (or ship PTX for compute_" + std::to_string(sm) +
                    " or older), or install a framework build whose wheel covers sm_" +
                    std::to_string(sm) + ".";
            out.push_back(std::move(f));
        }
        const std::string what = "no GPU code for " + name + " (sm_" + std::to_string(sm) + ")";
        auto grouped = util::unloaded_findings("CUV010", unloaded, "has " + what, "have " + what,
                                               "Nothing breaks while nothing loads them.");
        out.insert(out.end(), grouped.begin(), grouped.end());
    }
    return out;
}

}  // namespace cuv010

const ValidateCheck cuv010_no_kernel_for_gpu{
    CheckInfo{
        .id = "CUV010",
        .severity = report::Severity::error,
        .name = "no-kernel-for-gpu",
    },
    &cuv010::run,
};

}  // namespace cuvet::checks
