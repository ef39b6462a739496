// CUV015 framework-gpu-libraries
#include <map>
#include <optional>
#include <set>

#include "check_util.hpp"
#include "checks.hpp"

namespace cuvet::checks {

namespace cuv015 {

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

// "libcublasLt.so.12" → "cublas", "libcudnn_ops.so.9" → "cudnn".
std::string cuda_family_of(const std::string& soname) {
    auto family = soname.substr(3, soname.find(".so") - 3);
    if (family == "nvJitLink") return "nvjitlink";
    if (util::starts_with(family, "cublas")) return "cublas";
    if (util::starts_with(family, "cudnn")) return "cudnn";
    if (util::starts_with(family, "cudart")) return "cudart";
    return family;
}

// "libnvJitLink.so.13 (needed by …/libcusparse.so.12)" → the wheel that ships it.
std::string wheel_of_missing(const std::string& missing, int cuda_major) {
    auto family = cuda_family_of(missing.substr(0, missing.find(' ')));
    return util::pip_package(family,
                             cuda_major < 13 ? std::optional<int>(cuda_major) : std::nullopt);
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
    util::add_trace(f, r);
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
            f.evidence.push_back("CUDA runtime in the image: " + util::describe(c));
            break;
        }
    f.fix = "pip install 'jax[cuda" + std::to_string(major) + "]'==" + fw.version.str() +
            " (adds jax-cuda" + std::to_string(major) + "-plugin and the CUDA wheels it needs).";
    return f;
}

// ONNX Runtime loads libonnxruntime_providers_cuda.so when a session asks for
// the CUDA provider; a DT_NEEDED it cannot resolve makes the load fail, ORT
// logs two lines and the session runs on the CPU (texts as ORT prints them,
// microsoft/onnxruntime provider_bridge_ort.cc / onnxruntime_pybind_state.cc).
std::optional<report::Finding> ort_provider_fails(const Stack& stack, const rules::Database& db,
                                                  const FrameworkInstall& fw) {
    std::map<std::string_view, const ElfObject*> by_file;
    const ElfObject* provider = nullptr;
    for (const auto& o : stack.objects) {
        by_file.emplace(o.file, &o);
        if (util::base_name(o.path) == "libonnxruntime_providers_cuda.so" &&
            util::under(o.path, fw.root))
            provider = &o;
    }
    if (provider == nullptr) return std::nullopt;
    // The CUDA and cuDNN majors it was built for, from its own DT_NEEDED.
    std::string cuda = "?", cudnn = "?";
    for (const auto& r : provider->resolutions) {
        auto dot = r.name.rfind(".so.");
        if (dot == std::string::npos) continue;
        auto major = r.name.substr(dot + 4, r.name.find('.', dot + 4) - dot - 4);
        if (util::starts_with(r.name, "libcudnn.so.")) cudnn = major;
        if (util::starts_with(r.name, "libcudart.so.") ||
            util::starts_with(r.name, "libcublasLt.so."))
            cuda = major;
    }
    std::vector<const ElfObject*> queue = {provider};
    std::set<std::string_view> seen = {provider->file};
    for (std::size_t i = 0; i < queue.size(); ++i) {
        for (const auto& r : queue[i]->resolutions) {
            if (r.from_dlopen || r.provided_by_host) continue;
            if (r.path.empty()) {
                report::Finding f;
                // The warning that follows is worded per release (rules error_texts).
                rules::MessageValues values;
                if (cudnn != "?") values.cudnn_major = cudnn;
                if (cuda != "?") values.cuda_major = cuda;
                auto then = util::framework_says(db, fw, "cuda_ep_unavailable", values);
                f.message =
                    "onnxruntime " + fw.version.str() + " cannot load its CUDA provider " +
                    provider->path + " (" + r.name +
                    (queue[i] == provider ? "" : ", needed by " + queue[i]->path) +
                    ", is not found), so every session runs on the CPU: \"Failed to load library "
                    "libonnxruntime_providers_cuda.so with error: " +
                    r.name + ": cannot open shared object file: No such file or directory\"" +
                    (then ? " then \"" + then->text + "\"" : "");
                if (then)
                    f.evidence.push_back("what onnxruntime " + fw.version.str() +
                                         " prints next: " + util::cite(then->row->provenance));
                f.locations = {{provider->path}};
                util::add_trace(f, r);
                f.fix = "Install what the provider needs where ld.so finds it (pip install '" +
                        util::pip_package(cuda_family_of(r.name),
                                          cuda == "?" || cuda == "13"
                                              ? std::nullopt
                                              : std::optional<int>(std::stoi(cuda))) +
                        "' and add its lib dir to LD_LIBRARY_PATH, or call "
                        "onnxruntime.preload_dlls() before creating the "
                        "session), or use an image with CUDA " +
                        cuda + " and cuDNN " + cudnn + ".";
                return f;
            }
            if (auto it = by_file.find(r.file); it != by_file.end() && seen.insert(r.file).second)
                queue.push_back(it->second);
        }
    }
    return std::nullopt;
}

bool fails(const FrameworkLoad& load) {
    return !load.resolution.provided_by_host &&
           (load.resolution.path.empty() || load.resolution.error || !load.missing.empty());
}

// CuPy 14 finds its libraries through cuda-pathfinder when a feature first
// needs them; its error names every soname it would have taken.
std::vector<report::Finding> cupy_cannot_load(const FrameworkInstall& fw) {
    std::vector<report::Finding> out;
    int major = fw.built_cuda ? fw.built_cuda->major() : 0;
    bool blas_reported = false;
    for (const auto& load : fw.loads) {
        if (!fails(load)) continue;
        bool blas = util::starts_with(load.component, "cuBLAS");
        if (blas && blas_reported) continue;
        blas_reported = blas_reported || blas;
        const auto& r = load.resolution;
        report::Finding f;
        std::string error = load.component == "NVRTC" ? "DynamicLibNotFoundError" : "ImportError";
        f.message =
            "cupy " + fw.version.str() + " (" + fw.gpu_package + ") finds no " + load.component +
            " (" + r.name + (load.missing.empty() ? "" : "; " + load.missing.front()) + "), so " +
            (load.component == "NVRTC" ? "no kernel compiles (every elementwise operation fails)"
                                       : "matrix products fail") +
            ": \"" + error + ": Failure finding \\\"" + r.name + "\\\"\"";
        f.locations = {{fw.root}};
        util::add_trace(f, r);
        for (const auto& m : load.missing) f.evidence.push_back("does not resolve: " + m);
        std::string wheel = load.component == "NVRTC" ? "nvidia-cuda-nvrtc" : "nvidia-cublas";
        if (major < 13) wheel += "-cu" + std::to_string(major);
        f.fix = "pip install " + wheel + " (or pip install '" +
                fw.gpu_package.substr(0, fw.gpu_package.find(' ')) + "[ctk]'), or put a CUDA " +
                std::to_string(major) + " " + load.component + " where ld.so finds it.";
        out.push_back(std::move(f));
    }
    return out;
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

bool has_cuda_runtime(const Stack& stack) {
    for (const auto& c : stack.libraries)
        if (c.family == "cudart") return true;
    return false;
}

std::vector<report::Finding> run(const Stack& stack, const rules::Database& db) {
    std::vector<report::Finding> out;
    for (const auto& fw : stack.frameworks) {
        util::ImportedBy imported_by{out, fw};
        if (fw.name == "onnxruntime") {
            if (auto f = ort_provider_fails(stack, db, fw)) out.push_back(std::move(*f));
            continue;
        }
        if (fw.name == "cupy") {
            for (auto& f : cupy_cannot_load(fw)) out.push_back(std::move(f));
            continue;
        }
        if (fw.name != "jax") continue;
        if (fw.variant == "cpu") {
            if (has_cuda_runtime(stack)) out.push_back(jax_without_plugin(stack, fw));
            continue;
        }
        if (auto f = jax_half_installed(fw)) {
            out.push_back(std::move(*f));
            continue;
        }
        // JAX stops at the first library that does not load.
        for (const auto& load : fw.loads) {
            if (fails(load)) {
                out.push_back(jax_cannot_load(fw, load));
                break;
            }
        }
    }
    return out;
}

}  // namespace cuv015

const ValidateCheck cuv015_framework_gpu_libraries{
    CheckInfo{
        .id = "CUV015",
        .severity = report::Severity::error,
        .title = "A GPU framework cannot load the CUDA libraries it opens itself, and falls back "
                 "to the CPU",
        .rationale =
            "ONNX Runtime opens libonnxruntime_providers_cuda.so when a session asks for the CUDA "
            "provider; if ld.so cannot resolve one of its DT_NEEDED (libcublasLt.so.12, "
            "libcudnn.so.9), ORT logs \"Failed to create CUDAExecutionProvider. Require cuDNN 9.* "
            "and CUDA 12.*\" and runs the session on the CPU. JAX's CUDA plugin opens cudart, "
            "cuDNN, cuFFT, cuPTI, cuBLAS and cuSPARSE itself at start-up: first by path from the "
            "nvidia wheel dirs (site-packages/nvidia/cu13/lib, nvidia/cudnn/lib), then by soname "
            "through ld.so from jax_cudaNN_plugin/_versions.so, whose RPATH names those dirs. A "
            "library that is missing, or whose own dependencies are (libcusparse.so.12 needs "
            "libnvJitLink.so.13), stops the plugin with \"Unable to load cuSPARSE. Is it "
            "installed?\"; JAX logs it and runs everything on the CPU. A jaxlib without any CUDA "
            "plugin does the same. CuPy 14 opens NVRTC (for every kernel) and cuBLAS through "
            "cuda-pathfinder, from the nvidia wheel dir or ld.so; without them its first "
            "elementwise operation or matmul raises \"Failure finding \\\"libnvrtc.so.13 or "
            "libnvrtc.so.12\\\"\". JAX and ONNX Runtime still exit 0: the GPU the image was built "
            "for sits idle.",
        .failing_example =
            "FROM python:3.12\nRUN pip install 'jax[cuda13]' && pip uninstall -y "
            "nvidia-cusparse\n# → CUV015 jax cannot load cuSPARSE and runs on the CPU",
        .passing_example = "FROM python:3.12\nRUN pip install 'jax[cuda13]'",
        .fix = "Install the framework's CUDA extra (pip install 'jax[cuda13]'), which brings every "
               "NVIDIA wheel its plugin opens, or make the missing library reachable by ld.so.",
        .name = "framework-gpu-libraries",
    },
    &cuv015::run,
};

}  // namespace cuvet::checks
