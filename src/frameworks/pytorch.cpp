// PyTorch: what `import torch` maps for the modules that link it, its optional NVRTC, and Triton
// (torch.compile's GPU compiler, triton.cpp) for its tools.
#include <algorithm>

#include "findings.hpp"
#include "model_support.hpp"
#include "triton.hpp"

namespace cuvet::frameworks {

namespace {

using stack::FrameworkInstall;
using stack::FrameworkLoad;
using stack::FrameworkTool;
using namespace detail;

// PyTorch's own extension module: `import torch` maps it and its closure
// (libtorch*, libc10*, the CUDA libraries through torch/lib's RPATH).
std::string torch_module(const inventory::Analysis& analysis, const FrameworkInstall& fw) {
    auto prefix = fw.root + "/_C.";
    auto it = analysis.elfs.lower_bound(prefix);
    return it != analysis.elfs.end() && starts_with(it->first, prefix) ? it->first : "";
}

// What `import torch` leaves loaded, by SONAME: torch/lib's libraries.
std::map<std::string, std::string> torch_sonames(const inventory::Analysis& analysis,
                                                 const FrameworkInstall& fw) {
    std::map<std::string, std::string> out;
    auto prefix = fw.root + "/lib/";
    for (auto it = analysis.elfs.lower_bound(prefix);
         it != analysis.elfs.end() && starts_with(it->first, prefix); ++it)
        if (!it->second.soname.empty()) out.emplace(it->second.soname, it->first);
    return out;
}

void add_torch_models(const inventory::Analysis& analysis, const FrameworkInstall& fw,
                      ImportModels& out) {
    // libcaffe2_nvrtc.so is dlopen()ed at the first runtime-compiled kernel
    // (jiterator, fusers), not at import: without NVRTC only those fail.
    auto nvrtc = fw.root + "/lib/libcaffe2_nvrtc.so";
    if (auto it = analysis.elfs.find(nvrtc); it != analysis.elfs.end()) {
        ImportModel model;
        for (const auto& name : it->second.needed)
            if (starts_with(name, "libnvrtc") || starts_with(name, "libcuda."))
                model.optional.insert(name);
        if (!model.optional.empty()) out.emplace(nvrtc, std::move(model));
    }
    // torchvision, torchaudio and C++ extensions link torch's libraries
    // without an RPATH to them: they run after `import torch`, which maps them.
    auto module = torch_module(analysis, fw);
    if (module.empty()) return;
    auto sonames = torch_sonames(analysis, fw);
    auto site = dir_name(fw.root);
    for (auto it = analysis.elfs.lower_bound(site + "/");
         it != analysis.elfs.end() && starts_with(it->first, site + "/"); ++it) {
        if (starts_with(it->first, fw.root + "/")) continue;
        bool links_torch = std::any_of(it->second.needed.begin(), it->second.needed.end(),
                                       [&](const std::string& n) { return sonames.count(n) > 0; });
        if (!links_torch) continue;
        // Each name the module needs that torch mapped: torch/lib's, and the
        // CUDA libraries torch took from the nvidia wheel dirs.
        ImportModel& model = out[it->first];
        model.preload_rule = "import torch (run first)";
        for (const auto& name : it->second.needed) {
            if (auto own = sonames.find(name); own != sonames.end()) {
                model.preloads.push_back(own->second);
                continue;
            }
            for (const auto& dir : fw.bundled_library_dirs) {
                if (is_file(analysis, dir + "/" + name)) {
                    model.preloads.push_back(dir + "/" + name);
                    break;
                }
            }
        }
    }
}

void model_torch(const inventory::Analysis& analysis, const loader::Loader&, const Environment& env,
                 FrameworkInstall& fw) {
    model_triton(analysis, env, fw);
}

std::string fix_cpu_fallback(const SmokeWords& said) {
    if (said.verdict == "cpu_fallback")
        return "check that the driver is visible in the container and that torch is a CUDA build "
               "(torch.version.cuda)";
    return "";
}

}  // namespace

const Framework& pytorch() {
    static const Framework framework{
        .name = "pytorch",
        .display = "PyTorch",
        .component = "torch",
        .smoke = "torch",
        .error_markers = {"cuDNN version incompatibility",
                          "not found in the system path",  // its own preload of the wheel libraries
                          "CUDA error"},                   // generic
        .cpu_fallback = "torch.cuda.is_available() is False",
        .fix_last = fix_cpu_fallback,
        .add_import_models = add_torch_models,
        .model_loads = model_torch,
        .gpu_compiler_findings = detail::pytorch_gpu_compiler_findings,
        .import_error = detail::pytorch_import_error,
    };
    return framework;
}

}  // namespace cuvet::frameworks
