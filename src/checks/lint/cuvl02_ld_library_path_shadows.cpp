// CUVL02: LD_LIBRARY_PATH puts system CUDA/cuDNN directories ahead of the
// libraries a wheel bundles.
#include <algorithm>
#include <cctype>
#include <string_view>

#include "checks/lint/lint_support.hpp"
#include "cuvet/checks/registry.hpp"

namespace cuvet::checks {
namespace cuvl02 {

// An apt package NVIDIA builds per CUDA major, named for it: libcusparselt0-cuda-12.
bool built_for_a_cuda_major(std::string_view name) {
    const auto at = name.rfind("-cuda-");
    if (at == std::string_view::npos || at + 6 >= name.size()) return false;
    const std::string_view major = name.substr(at + 6);
    return major.size() <= 2 && std::all_of(major.begin(), major.end(), [](char c) {
               return std::isdigit(static_cast<unsigned char>(c));
           });
}

// A directory of LD_LIBRARY_PATH that holds CUDA or cuDNN libraries in this image.
// A wheel's own directory (site-packages/nvidia/cudnn/lib) is not the system's, and
// /usr/local/nvidia/lib* is where the container runtime mounts the driver: both fine.
std::string system_cuda_dir(const std::string& dir, const dockerfile::StageFacts& stage,
                            const lint::BaseStack& base) {
    if (dir.empty() || dir.starts_with("/usr/local/nvidia") ||
        dir.find("-packages/") != std::string::npos)
        return {};
    bool apt_cudnn = false, conda_cuda = false, apt_per_cuda = false;
    for (const auto& p : stage.packages) {
        apt_cudnn =
            apt_cudnn || (p.manager == dockerfile::Manager::apt && lint::is_cudnn_package(p));
        apt_per_cuda = apt_per_cuda ||
                       (p.manager == dockerfile::Manager::apt && built_for_a_cuda_major(p.name));
        conda_cuda = conda_cuda || (p.manager == dockerfile::Manager::conda &&
                                    (!p.cuda.empty() || lint::is_cudnn_package(p)));
    }
    std::string_view path = dir;
    while (path.size() > 1 && path.ends_with('/')) path.remove_suffix(1);
    for (std::string_view multiarch :
         {"/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64"}) {
        // cuDNN's packages install into the multiarch directory itself.
        if (path == multiarch && (base.cudnn_major || apt_cudnn)) return "cuDNN";
        // NVIDIA's libraries built per CUDA major put theirs one level down
        // (libcusparselt0-cuda-12: …/libcusparseLt/12, libnvshmem3-cuda-12: …/nvshmem/12).
        if (path.starts_with(std::string(multiarch) + "/") && apt_per_cuda) return "CUDA libraries";
    }
    if ((dir.starts_with("/usr/local/cuda") || dir.find("/cuda-") != std::string::npos) &&
        base.cuda_libraries && dir.find("CUPTI") == std::string::npos) {
        return "CUDA";
    }
    if ((dir.starts_with("/opt/conda") || dir.find("conda/") != std::string::npos) && conda_cuda)
        return "conda CUDA";
    return {};
}

// The CUDA major in the sonames of the libraries a wheel brings (libcublas.so.12):
// a base library of another major has another name and shadows nothing. An unpinned package
// whose policy says pip takes the newest release's default build (torch, and the companions
// that pull it), alone or beside an --extra-index-url: that build, as the rules know it.
std::optional<int> wheel_cuda_major(const dockerfile::Package& p, const lint::WheelStack& wheel,
                                    const rules::Database& db) {
    if (wheel.cuda) return wheel.cuda->major();
    if (!wheel.policy || !wheel.policy->unpinned_default || !p.version.empty() ||
        (!p.index_url.empty() && !p.pypi_also))
        return std::nullopt;
    const rules::FrameworkBuild* newest = nullptr;
    for (const auto& b : db.framework_builds()) {
        if (b.framework != wheel.framework || !b.is_default || b.index != "pypi" || !b.cuda ||
            !b.version)
            continue;
        if (!newest || *newest->version < *b.version) newest = &b;
    }
    if (!newest) return std::nullopt;
    return newest->cuda->major();
}

// CUDA 13's NVIDIA wheels install every CUDA library into one dir,
// site-packages/nvidia/cu13/lib (cuDNN's wheels into nvidia/cudnn/lib, which holds only it).
bool holds_all_wheel_libraries(const std::string& dir) {
    const auto at = dir.find("-packages/nvidia/cu");
    if (at == std::string::npos) return false;
    std::string rest = dir.substr(at + std::string("-packages/nvidia/cu").size());
    while (!rest.empty() && rest.back() == '/') rest.pop_back();
    const auto slash = rest.find('/');
    const std::string major = rest.substr(0, slash);
    return !major.empty() && major.find_first_not_of("0123456789") == std::string::npos &&
           slash != std::string::npos && rest.substr(slash) == "/lib";
}

// Whether a system directory of kind `what` can hold a library the wheel also brings.
// A base of the very CUDA release the wheel was built for (cu121 on 12.1.x) holds the
// same libraries up to a patch level: loading them first changes nothing that matters.
bool can_shadow(const std::string& what, const std::optional<int>& wheel_major,
                const std::optional<rules::Version>& wheel_cuda, const lint::BaseStack& base) {
    if (what != "CUDA" || !base.cuda) return true;
    if (wheel_cuda && wheel_cuda->size() >= 2 && base.cuda->size() >= 2 &&
        lint::same_cuda(*wheel_cuda, *base.cuda))
        return false;
    if (!wheel_major) return true;
    return *wheel_major == static_cast<int>(base.cuda->major());
}

// pip --no-deps leaves out the nvidia-* wheels a framework's CUDA libraries come in: the
// system's copies are then the only ones, and nothing is shadowed. The policy says from which
// CUDA major its builds bring them as requirements (torch up to cu118 may carry them inside
// the wheel; tensorflow[and-cuda] and jax[cudaNN] only as requirements).
bool libraries_left_out(const dockerfile::Package& p, const lint::WheelStack& wheel) {
    if (!p.no_deps || !wheel.policy || !wheel.policy->deps_bring_libraries_from) return false;
    const int from = *wheel.policy->deps_bring_libraries_from;
    return from == 0 || (wheel.cuda && static_cast<int>(wheel.cuda->major()) >= from);
}

std::vector<report::Finding> run(const dockerfile::Facts& facts, const rules::Database& db) {
    std::vector<report::Finding> out;
    const std::size_t index = facts.build.final_stage;
    const auto* variable = facts.env_variable(index, "LD_LIBRARY_PATH");
    if (!variable) return out;
    const auto& stage = facts.stages.at(index);
    const lint::BaseStack base = lint::base_stack(stage.base, db);
    std::vector<std::pair<std::string, std::string>> candidates;  // directory, what it holds
    std::size_t start = 0;
    const std::string& value = variable->value;
    while (start <= value.size()) {
        std::size_t colon = value.find(':', start);
        std::string dir =
            value.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
        // The NVIDIA wheels' own library dir ahead of the system's: the loader finds the
        // wheel's libraries there first, so nothing after it shadows them.
        if (holds_all_wheel_libraries(dir)) break;
        if (auto what = system_cuda_dir(dir, stage, base); !what.empty())
            candidates.emplace_back(dir, what);
        if (colon == std::string::npos) break;
        start = colon + 1;
    }
    if (candidates.empty()) return out;
    const dockerfile::Package* bundler = nullptr;
    std::vector<std::string> system_dirs;
    for (const auto& p : stage.packages) {
        auto wheel = lint::wheel_stack(p, db);
        if (!wheel || !wheel->bundles_libraries || wheel->cpu_only || libraries_left_out(p, *wheel))
            continue;
        const auto major = wheel_cuda_major(p, *wheel, db);
        for (const auto& [dir, what] : candidates) {
            if (can_shadow(what, major, wheel->cuda, base))
                system_dirs.push_back(dir + " (" + what + ")");
        }
        if (!system_dirs.empty()) {
            bundler = &p;
            break;
        }
    }
    if (!bundler) return out;
    auto f = lint::finding(facts, "CUVL02", variable->line, variable->line);
    f.severity = report::Severity::warning;
    f.message = "LD_LIBRARY_PATH lists " + lint::join(system_dirs, ", ") +
                ", which the loader searches before the "
                "RUNPATH of " +
                bundler->word +
                "'s bundled libraries: it loads the system's copies, not the ones "
                "it was built with.";
    f.evidence.push_back("ENV LD_LIBRARY_PATH=" + value + " (line " +
                         std::to_string(variable->line) + ")");
    f.evidence.push_back(bundler->word + " (line " + std::to_string(bundler->line) +
                         ") brings its own CUDA/cuDNN wheels");
    f.fix =
        "Drop the CUDA/cuDNN directories from LD_LIBRARY_PATH in the shipped stage; set them only "
        "where "
        "code is compiled against the system CUDA.";
    out.push_back(std::move(f));
    return out;
}

CheckInfo info() {
    CheckInfo i;
    i.id = "CUVL02";
    i.name = "ld-library-path-shadows-wheel";
    i.severity = report::Severity::warning;
    return i;
}

}  // namespace cuvl02

extern const LintCheck cuvl02_ld_library_path_shadows;
const LintCheck cuvl02_ld_library_path_shadows{cuvl02::info(), &cuvl02::run};

}  // namespace cuvet::checks
