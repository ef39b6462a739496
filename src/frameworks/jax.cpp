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
#include <regex>

#include "findings.hpp"
#include "model_support.hpp"

namespace cuvet::frameworks {

namespace {

using stack::FrameworkInstall;
using stack::FrameworkLoad;
using stack::FrameworkTool;
using namespace detail;

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

void model_jax(const inventory::Analysis& analysis, const loader::Loader& loader,
               const Environment& env, FrameworkInstall& fw) {
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
                open_from(loader, requester, lib.component,
                          is_file(analysis, preload) ? preload : std::string(lib.soname)));
            if (is_file(analysis, preload))
                fw.loads.back().resolution.loaded_by =
                    "preloaded by jax_plugins (nvidia wheel dir)";
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

bool contains(std::string_view text, std::string_view part) {
    return text.find(part) != std::string_view::npos;
}

std::string fix_first(const SmokeWords& said) {
    const auto all = said.all;
    if (contains(all, "libdevice") || contains(all, "No candidates could be compiled") ||
        contains(all, "PTX compilation") || contains(all, "ptxas"))
        return "give XLA ptxas and libdevice: pip install nvidia-cuda-nvcc (jax[cudaNN] pulls it), "
               "or install a "
               "CUDA toolkit at /usr/local/cuda, or point XLA_FLAGS=--xla_gpu_cuda_data_dir= at "
               "one";
    if (contains(all, "Jax plugin configuration error") || said.verdict == "cpu_fallback")
        return "install the CUDA libraries the jax-cudaNN-plugin loads (pip install 'jax[cudaNN]': "
               "cudart, cuDNN, "
               "cuBLAS, cuSPARSE, nvJitLink, …); JAX_PLATFORMS=cuda turns the silent CPU fallback "
               "into an error";
    return "";
}

}  // namespace

const Framework& jax() {
    static const Framework framework{
        .name = "jax",
        .display = "JAX",
        .component = "jaxlib",
        .module = "jax",
        .imports = {"jax", "jaxlib", "jax_plugins"},
        .smoke = "jax",
        .error_markers =
            {"Can't find libdevice directory",   // XLA
             "No candidates could be compiled",  // XLA's autotuner when nothing compiles
             "No PTX compilation provider",      // XLA without ptxas and nvJitLink
             "Jax plugin configuration error",   // the CUDA plugin did not initialize
             "Falling back to cpu",              // no usable GPU backend
             "Unable to initialize backend", "Could not find cuda drivers"},  // XLA's cudart stub
        .cpu_fallback = "jax.devices() is the CPU, not the GPU (JAX warns and goes on)",
        .fix_first = fix_first,
        .attach_gpu_package = attach_jax,
        .model_loads = model_jax,
        .gpu_library_findings = detail::jax_gpu_library_findings,
        .gpu_compiler_findings = detail::jax_gpu_compiler_findings,
    };
    return framework;
}

}  // namespace cuvet::frameworks
