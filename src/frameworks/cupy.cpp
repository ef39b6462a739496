// CuPy: its cuda build from the package name, what cuda-pathfinder loads, the headers NVRTC needs.
#include "findings.hpp"
#include "model_support.hpp"

namespace cuvet::frameworks {

namespace {

using stack::FrameworkInstall;
using stack::FrameworkLoad;
using stack::FrameworkTool;
using namespace detail;

// CuPy 14 (cupy-cudaNNx) opens its CUDA libraries through cuda-pathfinder,
// when first used: the nvidia wheel dir first, then ld.so by soname; either
// major it supports answers ("Failure finding \"libnvrtc.so.13 or
// libnvrtc.so.12\"" when none does). NVRTC compiles every kernel (any
// elementwise operation), cuBLAS serves matmul; kernels also need the CUDA
// headers (the cuda-runtime wheel's include dir, CUDA_PATH, nvcc's toolkit,
// /usr/local/cuda). Seen on the H100: testdata/gpu/env/framework_variants.log.
void model_cupy(const inventory::Analysis& analysis, const loader::Loader& loader,
                const Environment& env, FrameworkInstall& fw) {
    if (!fw.built_cuda || fw.version.major() < 14) return;
    int major = fw.built_cuda->major();
    auto site = dir_name(fw.root);
    std::string requester;
    for (auto it = analysis.elfs.lower_bound(fw.root + "/");
         it != analysis.elfs.end() && starts_with(it->first, fw.root + "/"); ++it) {
        requester = it->first;
        break;
    }
    if (requester.empty()) return;
    auto wheel_dir = [&](const std::string& package) {
        return site + "/nvidia/" + (major >= 13 ? std::string("cu13") : package) + "/lib/";
    };
    struct Library {
        const char* component;
        const char* package;
        const char* stem;
    };
    // cuBLASLt before cuBLAS: pathfinder loads a library's dependencies first.
    for (auto lib : {Library{"NVRTC", "cuda_nvrtc", "libnvrtc.so."},
                     Library{"cuBLASLt", "cublas", "libcublasLt.so."},
                     Library{"cuBLAS", "cublas", "libcublas.so."}}) {
        FrameworkLoad best;
        for (int m : {major, major - 1}) {
            std::string soname = lib.stem + std::to_string(m);
            std::string preload = wheel_dir(lib.package) + soname;
            auto load = open_from(loader, requester, lib.component,
                                  is_file(analysis, preload) ? preload : soname);
            if (is_file(analysis, preload))
                load.resolution.loaded_by = "cuda-pathfinder (nvidia wheel dir)";
            bool found = !load.resolution.path.empty() && load.missing.empty();
            if (found || best.component.empty()) best = std::move(load);
            if (found) break;
        }
        best.resolution.name = std::string(lib.stem) + std::to_string(major) + " or " + lib.stem +
                               std::to_string(major - 1);
        fw.loads.push_back(std::move(best));
    }
    std::vector<std::string> headers = {site + "/nvidia/" +
                                        (major >= 13 ? std::string("cu13") : "cuda_runtime") +
                                        "/include/cuda_runtime.h"};
    if (auto it = env.find("CUDA_PATH"); it != env.end())
        headers.push_back(it->second + "/include/cuda_runtime.h");
    for (const auto& dir : path_dirs(env))
        if (is_file(analysis, dir + "/nvcc"))
            headers.push_back(normal(dir + "/../include/cuda_runtime.h"));
    headers.push_back("/usr/local/cuda/include/cuda_runtime.h");
    fw.tools.push_back(find_tool(analysis, "CUDA headers", headers, false));
}

// CuPy's optional libraries: cupy.cuda.cutensor, cupy.cuda.nccl, cupyx's
// cuSPARSELt and cuDSS wrappers catch the ImportError and report the feature
// unavailable (cupy/_environment.py, cupy.cuda.*.available).
bool cupy_optional(std::string_view soname) {
    for (std::string_view stem : {"libcutensor", "libnccl.", "libcusparseLt.", "libcudss."})
        if (starts_with(soname, stem)) return true;
    return false;
}

void add_cupy_models(const inventory::Analysis& analysis, const FrameworkInstall& fw,
                     ImportModels& out) {
    if (fw.version.major() < 14) return;
    auto site = dir_name(fw.root);
    for (const char* package : {"/cupy/", "/cupy_backends/", "/cupyx/"}) {
        auto prefix = site + package;
        for (auto it = analysis.elfs.lower_bound(prefix);
             it != analysis.elfs.end() && starts_with(it->first, prefix); ++it) {
            ImportModel model;
            model.preload_rule = "cuda-pathfinder (nvidia wheel dir)";
            for (const auto& name : it->second.needed) {
                if (!starts_with(name, "lib") || name.find('/') != std::string::npos) continue;
                if (cupy_optional(name)) model.optional.insert(name);
                // pathfinder's first choice: the copy in site-packages/nvidia/*/lib.
                for (const auto& dir : fw.bundled_library_dirs) {
                    if (is_file(analysis, dir + "/" + name)) {
                        model.preloads.push_back(dir + "/" + name);
                        break;
                    }
                }
            }
            if (!model.preloads.empty() || !model.optional.empty())
                out.emplace(it->first, std::move(model));
        }
    }
}

void attach_cupy(const inventory::Inventory&, const inventory::Component& component,
                 FrameworkInstall& fw) {
    auto package = attribute(component, "package");
    if (!package.empty()) fw.gpu_package = package + " " + component.version;
    // "cupy-cuda13x" selects the "cuda13x" build (rules/frameworks.json's variant names).
    if (auto dash = package.rfind("-cuda"); dash != std::string::npos)
        fw.variant = package.substr(dash + 1);
}

// NVRTC compiles CuPy's kernels against the CUDA runtime headers; CuPy names the wheel extra
// that brings them (cupy/_environment.py: "pip install cupy-cuda12x[ctk]").
std::string fix_missing_headers(const SmokeWords& said) {
    if (said.all.find("Failed to find CUDA headers") == std::string_view::npos) return "";
    return "install the CUDA headers NVRTC needs (pip install nvidia-cuda-runtime, or "
           "cupy-cudaNNx[ctk]), or set "
           "CUDA_PATH to a toolkit";
}

}  // namespace

const Framework& cupy() {
    static const Framework framework{
        .name = "cupy",
        .display = "CuPy",
        .component = "cupy",
        .module = "cupy",
        .imports = {"cupy", "cupy_backends"},
        .smoke = "cupy",
        .error_markers = {"Failure finding",              // cuda-pathfinder
                          "Failed to find CUDA headers",  // NVRTC
                          "NVRTC_ERROR", "CompileException"},
        .fix_first = fix_missing_headers,
        .attach_gpu_package = attach_cupy,
        .add_import_models = add_cupy_models,
        .model_loads = model_cupy,
        .gpu_library_findings = detail::cupy_gpu_library_findings,
        .gpu_compiler_findings = detail::cupy_gpu_compiler_findings,
    };
    return framework;
}

}  // namespace cuvet::frameworks
