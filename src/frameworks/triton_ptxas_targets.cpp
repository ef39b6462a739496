// CUV016's Triton half: the ptxas Triton assembles with must know the target GPU's
// architecture.
#include <map>

#include "findings.hpp"
#include "model_support.hpp"

namespace cuvet::frameworks::detail {
namespace {

using stack::FrameworkInstall;
using stack::FrameworkTool;
using stack::Stack;

std::string file_name_of(std::string_view path) {
    return std::string(path.substr(path.rfind('/') + 1));
}

// Triton's target for a compute capability: sm_XY, with the arch-specific "a"
// from 9.0 on (triton/backends/nvidia/compiler.py sm_arch_from_capability in
// the Tritons that ship ptxas-blackwell). Older ones add it for 9.0 only: the
// RTX 5090 reports of Triton 3.2 read --gpu-name=sm_120 (fishaudio/fish-speech#907).
std::string triton_target(const rules::GpuArch& gpu, bool ships_blackwell) {
    const int sm = gpu.sm();
    return "sm_" + std::to_string(sm) + (sm == 90 || (sm > 90 && ships_blackwell) ? "a" : "");
}

// The ptxas Triton runs for this GPU: ptxas-blackwell from 10.0 on where the
// wheel ships one (compiler.py get_ptxas), else ptxas.
const FrameworkTool* ptxas_for(const FrameworkInstall& torch, const rules::GpuArch& gpu) {
    if (gpu.sm() >= 100)
        if (const auto* blackwell = framework_tool(torch, "ptxas-blackwell for Triton"))
            return blackwell;
    return framework_tool(torch, "ptxas for Triton");
}

struct Range {
    std::optional<rules::Version> first;  // first CUDA whose ptxas knows the target
    std::optional<rules::Version> last;   // last one; nullopt: still supported or unknown
};

Range cuda_range(const rules::GpuArch& gpu) {
    Range r;
    r.first = gpu.sm() >= 90 && gpu.arch_specific_first_cuda ? gpu.arch_specific_first_cuda
                                                             : gpu.first_cuda;
    if (!gpu.still_supported) r.last = gpu.last_cuda;
    return r;
}

bool knows(const rules::Version& release, const Range& range) {
    auto minor = release.truncated(2);
    if (range.first && minor < range.first->truncated(2)) return false;
    if (range.last && minor > range.last->truncated(2)) return false;
    return true;
}

// Another ptxas in the image that knows every failing target: the fix names it.
std::string usable_ptxas(const Stack& stack, const std::vector<Range>& ranges) {
    if (stack.elfs == nullptr) return "";
    std::string best;
    for (const auto& [path, elf] : *stack.elfs) {
        if (file_name_of(path) != "ptxas" || elf.cuda_tools_release.empty()) continue;
        auto release = rules::Version::parse(elf.cuda_tools_release);
        if (!release) continue;
        bool all = true;
        for (const auto& r : ranges) all = all && knows(*release, r);
        if (!all) continue;
        // A toolkit's ptxas reads better in a fix than a wheel's.
        if (best.empty() || starts_with(path, "/usr/local/cuda"))
            best = path + " (CUDA " + elf.cuda_tools_release + ")";
    }
    return best;
}

struct Failure {
    std::string gpu_name;
    const rules::GpuArch* gpu;
    Range range;
    bool too_old;
};

std::string range_text(const Failure& f) {
    return f.too_old ? "first in CUDA " + f.range.first->str()
                     : "last in CUDA " + f.range.last->str();
}

}  // namespace

std::vector<report::Finding> triton_ptxas_targets(const Stack& stack, const rules::Database& db,
                                                  const FrameworkInstall& torch) {
    // Failing targets per ptxas, in the order the user named them.
    std::map<const FrameworkTool*, std::vector<Failure>> failing;
    std::vector<const FrameworkTool*> order;
    for (const auto& name : stack.targets.gpus) {
        const auto* gpu = db.gpu(name);
        if (gpu == nullptr) continue;
        const auto* tool = ptxas_for(torch, *gpu);
        if (tool == nullptr || tool->path.empty() || tool->release.empty()) continue;
        auto release = rules::Version::parse(tool->release);
        if (!release) continue;
        Range range = cuda_range(*gpu);
        if (knows(*release, range)) continue;
        bool too_old = range.first && release->truncated(2) < range.first->truncated(2);
        if (!failing.count(tool)) order.push_back(tool);
        failing[tool].push_back({name, gpu, range, too_old});
    }
    std::vector<report::Finding> out;
    const bool blackwell_shipped = framework_tool(torch, "ptxas-blackwell for Triton") != nullptr;
    for (const auto* tool : order) {
        const auto& failures = failing[tool];
        const auto& first = failures.front();
        const std::string program = file_name_of(tool->path);
        const std::string target = triton_target(*first.gpu, blackwell_shipped);
        std::string gpus;
        for (const auto& f : failures) {
            gpus += (gpus.empty() ? "" : ", ") + f.gpu_name + " (" +
                    triton_target(*f.gpu, blackwell_shipped) + ", " + range_text(f) + ")";
        }
        report::Finding f;
        f.id = "CUV016";
        f.severity = report::Severity::warning;
        // Triton's own words: triton-lang/triton#8539 (sm_121a, bundled ptxas) and
        // triton-inference-server/server#8632 (sm_110a, ptxas-blackwell).
        f.message = "torch " + torch.version.str() + ": Triton assembles with " + tool->path +
                    " from CUDA " + tool->release + ", which does not know " + gpus +
                    ": torch.compile and @triton.jit fail with \"PTXASError: PTXAS error: Internal "
                    "Triton PTX codegen error … " +
                    program + " fatal   : Value '" + target +
                    "' is not defined for option 'gpu-name'\"";
        f.locations = {{tool->path}};
        f.evidence.push_back(tool->path + ": \"Cuda compilation tools, release " +
                             rules::Version::parse(tool->release)->truncated(2).str() + ", V" +
                             tool->release + "\" (its --version banner, read from the file)");
        for (const auto& fail : failures) {
            // sm_90a's first CUDA is a fact of the row's note, not of its compute capability's
            // source.
            const bool arch_specific = fail.gpu->sm() >= 90 && fail.gpu->arch_specific_first_cuda &&
                                       !fail.gpu->provenance.note.empty();
            f.evidence.push_back(fail.gpu_name + " is compute capability " +
                                 fail.gpu->compute_capability.str() + " (" +
                                 fail.gpu->architecture + "); ptxas knows " +
                                 triton_target(*fail.gpu, blackwell_shipped) + " " +
                                 range_text(fail) + " per " + rules::cite(fail.gpu->provenance) +
                                 (arch_specific ? "; " + fail.gpu->provenance.note : ""));
        }
        f.evidence.push_back(
            "Triton runs ptxas-blackwell for compute capability 10.0 and newer where its wheel "
            "ships one, ptxas below (triton/backends/nvidia/compiler.py get_ptxas)");
        for (const auto& c : tool->searched) f.evidence.push_back("  looked for ptxas at " + c);
        const bool blackwell = tool->name == "ptxas-blackwell for Triton";
        const std::string variable =
            blackwell ? "TRITON_PTXAS_BLACKWELL_PATH" : "TRITON_PTXAS_PATH";
        std::vector<Range> ranges;
        for (const auto& fail : failures) ranges.push_back(fail.range);
        // The variable chose this ptxas over a bundled one that would work: unset it.
        const std::string& bundled = tool->searched.back();
        if (tool->path != bundled && stack.elfs != nullptr) {
            auto it = stack.elfs->find(bundled);
            auto release = it == stack.elfs->end()
                               ? std::nullopt
                               : rules::Version::parse(it->second.cuda_tools_release);
            bool all = release.has_value();
            for (const auto& r : ranges) all = all && knows(*release, r);
            if (all) {
                f.fix = "Unset " + variable + ": Triton's bundled " + bundled + " (CUDA " +
                        it->second.cuda_tools_release + ") knows " + target + ".";
                out.push_back(std::move(f));
                continue;
            }
        }
        std::string other = usable_ptxas(stack, ranges);
        const std::string wanted = first.too_old ? "CUDA " + first.range.first->str() + " or newer"
                                                 : "CUDA " + first.range.last->str() + " or older";
        f.fix = "Set " + variable + " to a ptxas that knows " + target +
                (other.empty() ? " (" + wanted + ")" : ": the image has " + other) +
                ", or install a torch whose Triton bundles one, if the workload uses torch.compile "
                "or Triton kernels.";
        out.push_back(std::move(f));
    }
    return out;
}

}  // namespace cuvet::frameworks::detail
