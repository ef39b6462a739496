// JAX's CUDA side as it really starts (jax-ml/jax jax_plugins/cuda/__init__.py,
// openxla/xla subprocess_compilation.cc and tsl cuda_root_path.cc, checked
// against JAX 0.11.2 with the cuda13 plugin on an H100: testdata/gpu/env/):
//   1. initialize() dlopens each CUDA library by path from its nvidia wheel
//      dir (site-packages/nvidia/cu13/lib, …/cudnn/lib), ignoring failures;
//   2. _check_cuda_versions() then asks cudart, cuDNN, cuFFT, cuPTI, cuBLAS
//      and cuSPARSE for their versions through jax_cudaNN_plugin/_versions.so,
//      whose stubs dlopen them by soname: what step 1 loaded, else ld.so from
//      that object (its DT_RPATH names the wheel dirs). The first that fails
//      raises "Unable to load cuSPARSE. Is it installed?"; JAX logs it and
//      runs on the CPU;
//   3. XLA compiles kernels with ptxas, looked for in xla_gpu_cuda_data_dir
//      (CUDA_ROOT, or the nvidia/cu13 wheel dir when it has bin/ptxas), PATH,
//      then its candidate CUDA roots; libdevice in the same roots.
#include "framework_models.hpp"

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>

#include "cuvet/core/error.hpp"

namespace cuvet::validate {

namespace {

using checks::FrameworkInstall;
using checks::FrameworkLoad;
using checks::FrameworkTool;

bool starts_with(std::string_view s, std::string_view head) {
    return s.substr(0, head.size()) == head;
}

std::string dir_name(std::string_view path) {
    auto slash = path.rfind('/');
    return slash == std::string_view::npos ? std::string() : std::string(path.substr(0, slash));
}

std::string normal(const std::string& path) {
    auto out = std::filesystem::path(path).lexically_normal().string();
    if (out.size() > 1 && out.back() == '/') out.pop_back();
    return out;
}

// One library JAX's start-up check loads: the name it reports, the nvidia
// wheel module it preloads it from, the soname its stubs dlopen.
struct JaxLibrary {
    const char* component;
    const char* module;
    const char* soname;
};

// _load_nvidia_libraries() and the _version_check() calls, in check order.
const std::vector<JaxLibrary>& jax_libraries(int cuda_major) {
    static const std::vector<JaxLibrary> cuda13 = {
        {"CUDA", "cu13", "libcudart.so.13"},   {"cuDNN", "cudnn", "libcudnn.so.9"},
        {"cuFFT", "cu13", "libcufft.so.12"},   {"cuPTI", "cu13", "libcupti.so.13"},
        {"cuBLAS", "cu13", "libcublas.so.13"}, {"cuSPARSE", "cu13", "libcusparse.so.12"}};
    static const std::vector<JaxLibrary> cuda12 = {
        {"CUDA", "cuda_runtime", "libcudart.so.12"}, {"cuDNN", "cudnn", "libcudnn.so.9"},
        {"cuFFT", "cufft", "libcufft.so.11"},        {"cuPTI", "cuda_cupti", "libcupti.so.12"},
        {"cuBLAS", "cublas", "libcublas.so.12"},     {"cuSPARSE", "cusparse", "libcusparse.so.12"}};
    static const std::vector<JaxLibrary> none;
    return cuda_major == 13 ? cuda13 : cuda_major == 12 ? cuda12 : none;
}

const inventory::Component* sibling(const inventory::Inventory& inventory, std::string_view name,
                                    const std::string& site) {
    for (const auto* c : inventory.find(name))
        if (starts_with(c->location, site + "/")) return c;
    return nullptr;
}

std::string attribute(const inventory::Component& c, const std::string& key) {
    auto it = c.attributes.find(key);
    return it == c.attributes.end() ? "" : it->second;
}

void copy_pins(const inventory::Component& c, FrameworkInstall& fw) {
    for (const auto& [key, value] : c.attributes)
        if (starts_with(key, "requires:")) fw.pins.emplace(key.substr(9), value);
}

// jaxlib 0.4.x and older carried the CUDA build in its local version: "+cuda12.cudnn89".
void jaxlib_local_build(const std::string& local, FrameworkInstall& fw) {
    static const std::regex tag(R"(cuda(\d+)(?:\.cudnn(\d)(\d+))?)");
    std::smatch m;
    if (!std::regex_match(local, m, tag)) return;
    fw.variant = "cuda" + m[1].str();
    fw.built_cuda = rules::Version::parse(m[1].str());
    if (m[2].matched) fw.built_cudnn = rules::Version::parse(m[2].str() + "." + m[3].str());
    fw.gpu_package = "jaxlib " + fw.version.str() + "+" + local;
}

void attach_jax(const inventory::Inventory& inventory, const inventory::Component& jaxlib,
                FrameworkInstall& fw) {
    auto site = dir_name(jaxlib.location);
    const auto* plugin = sibling(inventory, "jax-cuda-plugin", site);
    const auto* pjrt = sibling(inventory, "jax-cuda-pjrt", site);
    const auto* gpu = plugin ? plugin : pjrt;
    if (gpu == nullptr) {
        auto plus = jaxlib.version.find('+');
        if (plus != std::string::npos) jaxlib_local_build(jaxlib.version.substr(plus + 1), fw);
        // Plain `pip install jax`: jaxlib alone runs on the CPU.
        if (fw.gpu_package.empty()) fw.variant = "cpu";
        return;
    }
    auto cuda = attribute(*gpu, "cuda");
    fw.variant = "cuda" + cuda;
    fw.built_cuda = rules::Version::parse(cuda);
    fw.gpu_package = attribute(*gpu, "package") + " " + gpu->version;
    for (const auto* c : {plugin, pjrt}) {
        if (c == nullptr) continue;
        fw.gpu_roots.push_back(c->location);
        copy_pins(*c, fw);
        for (const auto& e : c->evidence)
            fw.provenance.push_back(e.kind + " " + e.path + ": " + e.version);
    }
}

checks::Resolution convert(const loader::Resolution& r) {
    checks::Resolution out;
    out.name = r.name;
    out.path = r.status == loader::Status::found || r.status == loader::Status::error ? r.path : "";
    out.file = r.status == loader::Status::found ? r.file : "";
    out.rule = std::string(loader::to_string(r.rule));
    out.source = r.source;
    out.provided_by_host = r.status == loader::Status::host_driver;
    out.from_dlopen = true;
    out.error = r.status == loader::Status::error;
    for (const auto& a : r.trace) {
        std::string line = a.path + " (" + std::string(loader::to_string(a.rule));
        if (!a.source.empty() && a.rule != loader::Rule::ld_library_path) line += " of " + a.source;
        out.trace.push_back(line + ": " + std::string(loader::to_string(a.verdict)) + ")");
    }
    out.shadowed = r.shadowed;
    return out;
}

// What dlopen(name) from `requester` maps, and the DT_NEEDED under it that do
// not resolve (a library whose dependency is missing does not load either).
FrameworkLoad open_from(inventory::Analysis& analysis, const loader::Loader& loader,
                        const std::string& requester, const std::string& component,
                        const std::string& name) {
    FrameworkLoad load;
    load.component = component;
    auto& needed = analysis.elfs.find(requester)->second.needed;
    auto size = needed.size();
    needed.push_back(name);
    loader::Graph graph;
    try {
        graph = loader.resolve(requester);
    } catch (...) {
        needed.resize(size);
        throw;
    }
    needed.resize(size);
    const auto& r = graph.resolutions[graph.objects[0].needs.back()];
    load.resolution = convert(r);
    if (!r.object) return load;
    std::vector<std::size_t> queue = {*r.object};
    std::set<std::size_t> seen = {*r.object};
    for (std::size_t i = 0; i < queue.size(); ++i) {
        for (auto index : graph.objects[queue[i]].needs) {
            const auto& dep = graph.resolutions[index];
            if (dep.status == loader::Status::not_found || dep.status == loader::Status::error)
                load.missing.push_back(dep.name + " (needed by " + graph.objects[queue[i]].path +
                                       ")");
            if (dep.object && seen.insert(*dep.object).second) queue.push_back(*dep.object);
        }
    }
    return load;
}

bool is_file(const inventory::Analysis& analysis, const std::string& path) {
    auto r = analysis.tree.resolve(path);
    return r.status == image::Resolution::Status::ok && r.entry != nullptr &&
           r.entry->type == image::FileType::regular;
}

bool is_dir(const inventory::Analysis& analysis, const std::string& path) {
    auto r = analysis.tree.resolve(path);
    return r.status == image::Resolution::Status::ok && r.entry != nullptr &&
           r.entry->type == image::FileType::directory;
}

// jax._src.lib.cuda_path: CUDA_ROOT, else the nvcc wheel dir when Python can
// import it and it holds bin/ptxas (nvidia.cu13 is a namespace package: only
// its bin/ptxas makes it the data dir; nvidia.cuda_nvcc has an __init__.py).
std::string xla_data_dir(const inventory::Analysis& analysis,
                         const std::map<std::string, std::string>& env, const std::string& site) {
    if (auto it = env.find("CUDA_ROOT"); it != env.end()) return it->second;
    std::string cu13 = site + "/nvidia/cu13";
    if (is_file(analysis, cu13 + "/__init__.py")) return cu13;
    if (is_dir(analysis, cu13)) return is_file(analysis, cu13 + "/bin/ptxas") ? cu13 : "";
    std::string nvcc = site + "/nvidia/cuda_nvcc";
    if (is_file(analysis, nvcc + "/__init__.py")) return nvcc;
    return "";
}

// tsl::CandidateCudaRoots() as built into the plugin (`plugin_dir`: where xla_cuda_plugin.so is).
std::vector<std::string> candidate_cuda_roots(const std::string& plugin_dir, int cuda_major) {
    std::string wheel = cuda_major >= 13 ? "nvidia/cu13" : "nvidia/cuda_nvcc";
    return {"/usr/local/cuda",
            "/opt/cuda",
            normal(plugin_dir + "/../" + wheel),
            normal(plugin_dir + "/../../" + wheel),
            plugin_dir + "/cuda",
            normal(plugin_dir + "/../../../.."),
            normal(plugin_dir + "/../../../../..")};
}

FrameworkTool find_tool(const inventory::Analysis& analysis, std::string name,
                        std::vector<std::string> candidates, bool directory) {
    FrameworkTool tool;
    tool.name = std::move(name);
    std::set<std::string> seen;
    for (auto& c : candidates) {
        if (!seen.insert(c).second) continue;
        tool.searched.push_back(c);
        if (tool.path.empty() && (directory ? is_dir(analysis, c) : is_file(analysis, c)))
            tool.path = c;
    }
    return tool;
}

std::vector<std::string> path_dirs(const std::map<std::string, std::string>& env) {
    std::vector<std::string> dirs;
    auto it = env.find("PATH");
    if (it == env.end()) return dirs;
    std::size_t at = 0;
    const auto& path = it->second;
    while (at <= path.size()) {
        auto colon = path.find(':', at);
        auto dir = path.substr(at, colon == std::string::npos ? std::string::npos : colon - at);
        if (!dir.empty()) dirs.push_back(dir);
        if (colon == std::string::npos) break;
        at = colon + 1;
    }
    return dirs;
}

void model_jax(inventory::Analysis& analysis, const loader::Loader& loader,
               const std::map<std::string, std::string>& env, FrameworkInstall& fw) {
    if (fw.gpu_roots.empty() || !fw.built_cuda) return;
    int major = fw.built_cuda->major();
    std::string plugin_dir, pjrt_dir;
    for (const auto& root : fw.gpu_roots)
        (root.find("/jax_plugins/") != std::string::npos ? pjrt_dir : plugin_dir) = root;
    auto site = dir_name(plugin_dir.empty() ? dir_name(pjrt_dir) : plugin_dir);
    // The stubs that dlopen the libraries live in the plugin's _versions module.
    std::string requester;
    for (const auto& candidate : {plugin_dir + "/_versions.so", pjrt_dir + "/xla_cuda_plugin.so"})
        if (analysis.elfs.count(candidate)) {
            requester = candidate;
            break;
        }
    if (requester.empty()) {
        for (const auto& [path, elf] : analysis.elfs)
            if (!plugin_dir.empty() && starts_with(path, plugin_dir + "/")) {
                requester = path;
                break;
            }
    }
    if (!requester.empty()) {
        for (const auto& lib : jax_libraries(major)) {
            std::string preload = site + "/nvidia/" + lib.module + "/lib/" + lib.soname;
            fw.loads.push_back(
                open_from(analysis, loader, requester, lib.component,
                          is_file(analysis, preload) ? preload : std::string(lib.soname)));
            if (is_file(analysis, preload))
                fw.loads.back().resolution.rule = "preloaded by jax_plugins (nvidia wheel dir)";
        }
    }
    if (pjrt_dir.empty()) return;
    auto data_dir = xla_data_dir(analysis, env, site);
    auto roots = candidate_cuda_roots(pjrt_dir, major);
    std::vector<std::string> ptxas, libdevice;
    if (!data_dir.empty()) {
        ptxas.push_back(data_dir + "/bin/ptxas");
        libdevice.push_back(data_dir + "/nvvm/libdevice");
    }
    for (const auto& dir : path_dirs(env)) ptxas.push_back(normal(dir + "/ptxas"));
    for (const auto& root : roots) {
        ptxas.push_back(root + "/bin/ptxas");
        libdevice.push_back(root + "/nvvm/libdevice");
    }
    fw.tools.push_back(find_tool(analysis, "ptxas", ptxas, false));
    fw.tools.push_back(find_tool(analysis, "libdevice", libdevice, true));
}

// CuPy 14 (cupy-cudaNNx) opens its CUDA libraries through cuda-pathfinder,
// when first used: the nvidia wheel dir first, then ld.so by soname; either
// major it supports answers ("Failure finding \"libnvrtc.so.13 or
// libnvrtc.so.12\"" when none does). NVRTC compiles every kernel (any
// elementwise operation), cuBLAS serves matmul; kernels also need the CUDA
// headers (the cuda-runtime wheel's include dir, CUDA_PATH, nvcc's toolkit,
// /usr/local/cuda). Seen on the H100: testdata/gpu/env/framework_variants.log.
void model_cupy(inventory::Analysis& analysis, const loader::Loader& loader,
                const std::map<std::string, std::string>& env, FrameworkInstall& fw) {
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
            auto load = open_from(analysis, loader, requester, lib.component,
                                  is_file(analysis, preload) ? preload : soname);
            if (is_file(analysis, preload))
                load.resolution.rule = "cuda-pathfinder (nvidia wheel dir)";
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
                      std::map<std::string, ImportModel>& out) {
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

// numba's threading layers: tbbpool is tried and skipped when TBB does not
// load (numba/np/ufunc/parallel.py falls back to omppool or workqueue).
void add_optional_modules(const inventory::Analysis& analysis,
                          std::map<std::string, ImportModel>& out) {
    for (const auto& [path, elf] : analysis.elfs) {
        if (path.find("/numba/np/ufunc/tbbpool.") == std::string::npos) continue;
        for (const auto& name : elf.needed)
            if (starts_with(name, "libtbb")) out[path].optional.insert(name);
    }
}

// The CUDA release a compiler's banner states, read during the scan ("12.8.93");
// "" when the file was not read as ELF or states none.
std::string compiler_release(const inventory::Analysis& analysis, const std::string& path) {
    auto r = analysis.tree.resolve(path);
    if (r.status != image::Resolution::Status::ok || r.entry == nullptr) return "";
    const auto* data = analysis.tree.data_entry(*r.entry);
    auto it = analysis.elfs.find(data != nullptr ? data->path : r.path);
    return it == analysis.elfs.end() ? "" : it->second.cuda_tools_release;
}

// Triton (torch.compile's GPU compiler, pinned by torch) builds a launcher
// stub with the image's C compiler at the first kernel: CC, else gcc, else
// clang on PATH (triton/runtime/build.py, 3.6.0), and assembles with its
// bundled ptxas unless TRITON_PTXAS_PATH names one that exists (triton/knobs.py
// env_nvidia_tool falls back to the bundled one). Triton 3.6 also bundles
// ptxas-blackwell, used from compute capability 10.0 on (compiler.py
// get_ptxas; TRITON_PTXAS_BLACKWELL_PATH). Seen on the H100: every root
// without gcc fails with "Failed to find C compiler"
// (testdata/gpu/env/framework_variants.log).
void model_triton(const inventory::Analysis& analysis,
                  const std::map<std::string, std::string>& env, FrameworkInstall& fw) {
    auto triton = dir_name(fw.root) + "/triton";
    if (!is_dir(analysis, triton + "/backends/nvidia")) return;
    FrameworkTool cc;
    cc.name = "C compiler for Triton";
    if (auto it = env.find("CC"); it != env.end() && !it->second.empty()) {
        cc.path = it->second;  // the user's choice: not judged
        cc.searched.push_back("CC=" + it->second);
    } else {
        // No PATH in the config: the one Docker and the NVIDIA runtime start a process with.
        auto dirs = env.count("PATH")
                        ? path_dirs(env)
                        : std::vector<std::string>{"/usr/local/sbin", "/usr/local/bin", "/usr/sbin",
                                                   "/usr/bin",        "/sbin",          "/bin"};
        std::vector<std::string> candidates;
        for (const char* name : {"gcc", "clang"})
            for (const auto& dir : dirs) candidates.push_back(normal(dir + "/" + name));
        cc = find_tool(analysis, cc.name, candidates, false);
    }
    fw.tools.push_back(cc);
    auto ptxas = [&](const char* name, const char* variable, const std::string& bundled) {
        std::vector<std::string> candidates;
        if (auto it = env.find(variable); it != env.end()) candidates.push_back(it->second);
        candidates.push_back(bundled);
        auto tool = find_tool(analysis, name, candidates, false);
        if (!tool.path.empty()) tool.release = compiler_release(analysis, tool.path);
        return tool;
    };
    auto bin = triton + "/backends/nvidia/bin";
    fw.tools.push_back(ptxas("ptxas for Triton", "TRITON_PTXAS_PATH", bin + "/ptxas"));
    if (is_file(analysis, bin + "/ptxas-blackwell"))
        fw.tools.push_back(ptxas("ptxas-blackwell for Triton", "TRITON_PTXAS_BLACKWELL_PATH",
                                 bin + "/ptxas-blackwell"));
}

}  // namespace

std::map<std::string, ImportModel> framework_import_models(
    const inventory::Analysis& analysis, const std::vector<FrameworkInstall>& frameworks) {
    std::map<std::string, ImportModel> out;
    add_optional_modules(analysis, out);
    for (const auto& fw : frameworks) {
        if (fw.name == "pytorch") add_torch_models(analysis, fw, out);
        if (fw.name != "cupy" || fw.version.major() < 14) continue;
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
    return out;
}

void attach_gpu_package(const inventory::Inventory& inventory,
                        const inventory::Component& component, FrameworkInstall& fw) {
    if (fw.name == "jax") {
        attach_jax(inventory, component, fw);
    } else if (fw.name == "cupy") {
        auto package = attribute(component, "package");
        if (!package.empty()) fw.gpu_package = package + " " + component.version;
        // "cupy-cuda13x" selects the "cuda13x" build (rules/frameworks.json's variant names).
        if (auto dash = package.rfind("-cuda"); dash != std::string::npos)
            fw.variant = package.substr(dash + 1);
    }
    copy_pins(component, fw);
}

void model_framework_loads(inventory::Analysis& analysis, const loader::Loader& loader,
                           checks::Stack& stack) {
    for (auto& fw : stack.frameworks) {
        try {
            if (fw.name == "jax") model_jax(analysis, loader, stack.env, fw);
            if (fw.name == "cupy") model_cupy(analysis, loader, stack.env, fw);
            if (fw.name == "pytorch") model_triton(analysis, stack.env, fw);
        } catch (const Error&) {
            // An object the loader cannot start from has nothing to resolve.
        }
    }
}

}  // namespace cuvet::validate
