// JAX's own failures: its CUDA plugin that does not start (CUV015) and XLA without ptxas or
// libdevice (CUV016), in the words JAX and XLA print.
#include <map>
#include <optional>

#include "findings.hpp"
#include "model_support.hpp"

namespace cuvet::frameworks::detail {

namespace {

using stack::FrameworkInstall;
using stack::FrameworkLoad;
using stack::Stack;

// What JAX prints when its CUDA plugin does not start (jax-ml/jax
// jax_plugins/cuda/__init__.py and jax/_src/xla_bridge.py; seen verbatim on
// the H100: testdata/gpu/env/framework_variants.log).
const std::string jax_fallback =
    "An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed. "
    "Falling back to cpu.";

// The NVIDIA wheel that ships a library JAX checks, by the name JAX gives it.
std::string jax_wheel(const std::string& component, int cuda_major) {
    static const std::map<std::string, std::string> wheels = {
        {"CUDA", "nvidia-cuda-runtime"}, {"cuDNN", "nvidia-cudnn"},
        {"cuFFT", "nvidia-cufft"},       {"cuPTI", "nvidia-cuda-cupti"},
        {"cuBLAS", "nvidia-cublas"},     {"cuSPARSE", "nvidia-cusparse"}};
    auto it = wheels.find(component);
    if (it == wheels.end()) return "";
    // CUDA 13 wheels dropped the -cu13 suffix except cuDNN and NCCL.
    bool suffix = cuda_major < 13 || component == "cuDNN";
    return it->second + (suffix ? "-cu" + std::to_string(cuda_major) : "");
}

// "libnvJitLink.so.13 (needed by …/libcusparse.so.12)" → the wheel that ships it.
std::string wheel_of_missing(const std::string& missing, int cuda_major) {
    auto family = cuda_family_of(missing.substr(0, missing.find(' ')));
    return pip_package(family, cuda_major < 13 ? std::optional<int>(cuda_major) : std::nullopt);
}

std::string with_pin(const FrameworkInstall& fw, const std::string& wheel) {
    auto it = fw.pins.find(wheel);
    return it == fw.pins.end() || it->second.empty() ? wheel : wheel + it->second;
}

report::Finding jax_cannot_load(const FrameworkInstall& fw, const FrameworkLoad& load) {
    int major = fw.built_cuda ? fw.built_cuda->major() : 0;
    const auto& r = load.resolution;
    report::Finding f;
    std::string why = r.path.empty() ? r.name + " is not found"
                                     : r.path + " does not load: it needs " + load.missing.front();
    f.message = "jax " + fw.version.str() + " (" + fw.gpu_package + ") cannot load " +
                load.component + " (" + why +
                "), so it runs on the CPU: \"RuntimeError: Unable to load " + load.component +
                ". Is it installed?\" then \"" + jax_fallback + "\"";
    f.locations = {{fw.gpu_roots.empty() ? fw.root : fw.gpu_roots.front()}};
    if (!r.path.empty()) f.locations.push_back({r.path});
    add_trace(f, r);
    for (const auto& m : load.missing) f.evidence.push_back("does not resolve: " + m);
    for (const auto& p : fw.provenance) f.evidence.push_back("GPU package: " + p);
    auto wheel = r.path.empty() ? jax_wheel(load.component, major)
                                : wheel_of_missing(load.missing.front(), major);
    f.fix = "pip install '" + with_pin(fw, wheel) + "' (or the whole set: pip install 'jax[cuda" +
            std::to_string(major) + "]'), or put a CUDA " + std::to_string(major) + " " +
            load.component + " where ld.so finds it (ld.so.conf, LD_LIBRARY_PATH).";
    return f;
}

// A GPU image whose jaxlib has no CUDA plugin: JAX runs on the CPU without a word but a warning.
report::Finding jax_without_plugin(const Stack& stack, const FrameworkInstall& fw) {
    int major = stack.cuda_version ? stack.cuda_version->major() : 13;
    report::Finding f;
    f.message = "jax " + fw.version.str() + " (" + fw.root +
                ") has no CUDA plugin (jax-cudaNN-plugin) though the image holds a CUDA runtime, "
                "so it runs on the CPU: \"" +
                jax_fallback + "\"";
    f.locations = {{fw.root}};
    for (const auto& p : fw.provenance) f.evidence.push_back(p);
    for (const auto& c : stack.libraries)
        if (c.family == "cudart") {
            f.evidence.push_back("CUDA runtime in the image: " + stack::describe(c));
            break;
        }
    f.fix = "pip install 'jax[cuda" + std::to_string(major) + "]'==" + fw.version.str() +
            " (adds jax-cuda" + std::to_string(major) + "-plugin and the CUDA wheels it needs).";
    return f;
}

// JAX's CUDA side is two packages: jax-cudaNN-plugin (the _versions and
// extension modules) and jax-cudaNN-pjrt (jax_plugins/xla_cudaNN, the
// module JAX discovers). Without the first, initialize() stops at
// `assert cuda_versions is not None`; without the second nothing registers CUDA.
std::optional<report::Finding> jax_half_installed(const FrameworkInstall& fw) {
    bool plugin = false, pjrt = false;
    for (const auto& root : fw.gpu_roots)
        (root.find("/jax_plugins/") != std::string::npos ? pjrt : plugin) = true;
    if (plugin && pjrt) return std::nullopt;
    std::string major = fw.built_cuda ? std::to_string(fw.built_cuda->major()) : "NN";
    std::string missing = plugin ? "jax-cuda" + major + "-pjrt" : "jax-cuda" + major + "-plugin";
    report::Finding f;
    f.message =
        "jax " + fw.version.str() + " has " + fw.gpu_package + " but not " + missing +
        ", so it runs on the CPU: " +
        (plugin ? std::string("\"") + jax_fallback + "\""
                : "\"Jax plugin configuration error: Exception when calling jax_plugins.xla_cuda" +
                      major + ".initialize()\" (assert cuda_versions is not None) then \"" +
                      jax_fallback + "\"");
    f.locations = {{fw.gpu_roots.empty() ? fw.root : fw.gpu_roots.front()}};
    for (const auto& p : fw.provenance) f.evidence.push_back(p);
    f.fix = "pip install " + missing + "==" + fw.version.str() + " (or pip install 'jax[cuda" +
            major + "]'==" + fw.version.str() + ").";
    return f;
}

bool has_cuda_runtime(const stack::Stack& stack) {
    for (const auto& c : stack.libraries)
        if (c.family == "cudart") return true;
    return false;
}

// A plugin that does not start leaves JAX on the CPU: it never compiles for the GPU.
bool starts(const FrameworkInstall& fw) {
    for (const auto& load : fw.loads)
        if (fails_to_load(load)) return false;
    return true;
}

}  // namespace

std::vector<report::Finding> jax_gpu_library_findings(const stack::Stack& stack,
                                                      const rules::Database&,
                                                      const FrameworkInstall& fw) {
    if (fw.variant == "cpu") {
        if (has_cuda_runtime(stack)) return {jax_without_plugin(stack, fw)};
        return {};
    }
    if (auto f = jax_half_installed(fw)) return {std::move(*f)};
    // JAX stops at the first library that does not load.
    for (const auto& load : fw.loads)
        if (fails_to_load(load)) return {jax_cannot_load(fw, load)};
    return {};
}

std::vector<report::Finding> jax_gpu_compiler_findings(const stack::Stack&, const rules::Database&,
                                                       const FrameworkInstall& fw) {
    if (!starts(fw)) return {};
    const auto* ptxas = framework_tool(fw, "ptxas");
    const auto* libdevice = framework_tool(fw, "libdevice");
    std::string major = fw.built_cuda ? std::to_string(fw.built_cuda->major()) : "";
    std::string where = fw.gpu_roots.empty() ? fw.root : fw.gpu_roots.back();
    if (ptxas && ptxas->path.empty()) {
        report::Finding f;
        // The user-visible failure on JAX 0.11.2 (H100,
        // testdata/gpu/env/framework_variants.log); XLA's autotuner cannot compile a single
        // candidate without ptxas.
        f.message =
            "jax " + fw.version.str() + " (" + fw.gpu_package +
            ") finds no ptxas where XLA looks, so its first GPU computation fails to compile: "
            "\"JaxRuntimeError: INTERNAL: Failed to get configs for: … instructions. … No "
            "candidates "
            "could be compiled.\"";
        f.locations = {{where}};
        f.evidence.push_back(
            "XLA assembles every kernel with ptxas (xla_gpu_cuda_data_dir, PATH, then its CUDA "
            "roots)");
        add_searched(f, *ptxas);
        f.fix = "pip install nvidia-cuda-nvcc" +
                std::string(major == "13" || major.empty() ? "" : "-cu" + major) +
                " (the jax[cuda" + major + "] extra; it puts ptxas in site-packages/nvidia/" +
                (major == "13" ? "cu13" : "cuda_nvcc") + "/bin), or install a CUDA " + major +
                " toolkit at /usr/local/cuda (nvidia/cuda:*-devel), or set CUDA_ROOT to one.";
        return {std::move(f)};
    }
    if (libdevice && libdevice->path.empty()) {
        report::Finding f;
        f.id = "CUV016";
        f.severity = report::Severity::warning;
        f.message = "jax " + fw.version.str() + " (" + fw.gpu_package +
                    ") finds no libdevice where XLA looks: \"Can't find libdevice directory "
                    "${CUDA_DIR}/nvvm/libdevice. This may result in compilation or runtime "
                    "failures, if the "
                    "program we try to run uses routines from libdevice.\"";
        f.locations = {{where}};
        add_searched(f, *libdevice);
        f.fix = "pip install nvidia-nvvm (part of jax[cuda" + major + "]), or install a CUDA " +
                major + " toolkit at /usr/local/cuda.";
        return {std::move(f)};
    }
    return {};
}

}  // namespace cuvet::frameworks::detail
