#include "support/framework_wheels.hpp"

#include <algorithm>
#include <filesystem>

namespace cuvet::test {

namespace {

// The plugin's RPATH as readelf shows it (DT_RPATH: searched before LD_LIBRARY_PATH).
const std::string plugin_rpath =
    "-Wl,--disable-new-dtags,-rpath,'$ORIGIN/../../nvidia/cu13/lib:$ORIGIN/../nvidia/cu13/lib:"
    "$ORIGIN/../../nvidia/cudnn/lib:$ORIGIN/../nvidia/cudnn/lib'";

const std::string origin_runpath = "-Wl,--enable-new-dtags,-rpath,'$ORIGIN'";

std::string dist_dir_name(std::string name) {
    std::replace(name.begin(), name.end(), '-', '_');
    return name;
}

}  // namespace

void dist_info(Rootfs& fs, const std::string& base, const std::string& name,
               const std::string& version, const std::string& requires_dist,
               const std::vector<std::string>& files) {
    std::string dir = base + "/" + dist_dir_name(name) + "-" + version + ".dist-info";
    fs.write(dir + "/METADATA", "Metadata-Version: 2.4\nName: " + name + "\nVersion: " + version +
                                    "\nSummary: test copy\n" + requires_dist + "\n");
    if (files.empty()) return;
    std::string record;
    for (const auto& f : files) record += f + ",sha256=AAAA,1234\n";
    record += dist_dir_name(name) + "-" + version + ".dist-info/METADATA,,\n";
    fs.write(dir + "/RECORD", record);
}

void jax_cuda13(CudaImage& img, const JaxCuda13& o) {
    auto& fs = img.fs();
    const std::string& site = site_packages;
    std::string cu13 = site + "/nvidia/cu13/lib";
    // The wheels' libraries carry RUNPATH $ORIGIN (readelf of nvidia-cublas 13.1.0.3 and friends).
    auto lib = [&](const std::string& soname, const std::vector<std::string>& needs = {}) {
        if (o.drop.count(soname)) return;
        fs.lib(cu13 + "/" + soname, soname, needs, origin_runpath);
    };
    lib("libnvJitLink.so.13");
    lib("libcudart.so.13");
    lib("libcufft.so.12");
    lib("libcupti.so.13");
    lib("libcublasLt.so.13");
    lib("libcublas.so.13", o.drop.count("libcublasLt.so.13")
                               ? std::vector<std::string>{}
                               : std::vector<std::string>{cu13 + "/libcublasLt.so.13"});
    // libcusparse.so.12 of CUDA 13 needs libnvJitLink.so.13 (found beside it through its RUNPATH
    // $ORIGIN).
    if (!o.drop.count("libcusparse.so.12")) {
        if (o.drop.count("libnvJitLink.so.13")) {
            fs.lib(site + "/.build/libnvJitLink.so.13", "libnvJitLink.so.13");
            fs.lib(cu13 + "/libcusparse.so.12", "libcusparse.so.12",
                   {site + "/.build/libnvJitLink.so.13"},
                   "-Wl,--enable-new-dtags,-rpath,'$ORIGIN'");
            std::filesystem::remove_all(fs.host(site + "/.build"));
        } else {
            fs.lib(cu13 + "/libcusparse.so.12", "libcusparse.so.12", {cu13 + "/libnvJitLink.so.13"},
                   "-Wl,--enable-new-dtags,-rpath,'$ORIGIN'");
        }
    }
    dist_info(fs, site, "nvidia-cuda-runtime", "13.0.96", "", {"nvidia/cu13/lib/libcudart.so.13"});
    dist_info(fs, site, "nvidia-cufft", "12.0.0.61", "", {"nvidia/cu13/lib/libcufft.so.12"});
    dist_info(fs, site, "nvidia-cublas", "13.1.0.3", "",
              {"nvidia/cu13/lib/libcublas.so.13", "nvidia/cu13/lib/libcublasLt.so.13"});
    dist_info(fs, site, "nvidia-cusparse", "12.6.3.3", "Requires-Dist: nvidia-nvjitlink\n",
              {"nvidia/cu13/lib/libcusparse.so.12"});
    if (!o.drop.count("libnvJitLink.so.13"))
        dist_info(fs, site, "nvidia-nvjitlink", "13.0.88", "",
                  {"nvidia/cu13/lib/libnvJitLink.so.13"});
    if (o.cudnn) {
        fs.lib(site + "/nvidia/cudnn/lib/libcudnn.so.9", "libcudnn.so.9");
        dist_info(fs, site, "nvidia-cudnn-cu13", "9.19.0.56", "Requires-Dist: nvidia-cublas\n",
                  {"nvidia/cudnn/lib/libcudnn.so.9"});
    }
    if (o.nvcc) {
        fs.exe(site + "/nvidia/cu13/bin/ptxas");
        dist_info(fs, site, "nvidia-cuda-nvcc", "13.0.88", "", {"nvidia/cu13/bin/ptxas"});
    }
    if (o.nvvm) fs.write(site + "/nvidia/cu13/nvvm/libdevice/libdevice.10.bc", "BC\xc0\xde");

    dist_info(fs, site, "jax", "0.11.2", "Requires-Dist: jaxlib<=0.11.2,>=0.11.2\n");
    fs.lib(site + "/jaxlib/libjax_common.so", "libjax_common.so");
    fs.write(site + "/jaxlib/version.py", "_version: str = \"0.11.2\"\n");
    dist_info(fs, site, "jaxlib", "0.11.2", "Requires-Dist: numpy>=2.0\n",
              {"jaxlib/libjax_common.so"});
    if (!o.plugin) return;
    fs.lib(site + "/jax_cuda13_plugin/_versions.so", "_versions.so", {}, plugin_rpath);
    fs.lib(site + "/jax_cuda13_plugin/cuda_plugin_extension.so", "cuda_plugin_extension.so", {},
           plugin_rpath);
    dist_info(fs, site, "jax-cuda13-plugin", "0.11.2",
              "Requires-Dist: jax-cuda13-pjrt==0.11.2\nProvides-Extra: with-cuda\n"
              "Requires-Dist: nvidia-cublas>=13.0.0.19; sys_platform == \"linux\" and extra == "
              "\"with-cuda\"\n"
              "Requires-Dist: nvidia-cuda-nvcc>=13.0.48; sys_platform == \"linux\" and extra == "
              "\"with-cuda\"\n"
              "Requires-Dist: nvidia-cuda-runtime>=13.0.48; sys_platform == \"linux\" and extra == "
              "\"with-cuda\"\n"
              "Requires-Dist: nvidia-cudnn-cu13<10.0,>=9.12.0.46; sys_platform == \"linux\" and "
              "extra == \"with-cuda\"\n"
              "Requires-Dist: nvidia-cusparse>=12.6.2.49; sys_platform == \"linux\" and extra == "
              "\"with-cuda\"\n"
              "Requires-Dist: nvidia-nvjitlink>=13.0.39; sys_platform == \"linux\" and extra == "
              "\"with-cuda\"\n"
              "Requires-Dist: nvidia-nvvm; extra == \"with-cuda\"\n",
              {"jax_cuda13_plugin/_versions.so", "jax_cuda13_plugin/cuda_plugin_extension.so"});
    // The real plugin has no DT_NEEDED on the driver: it dlopen()s libcuda.so.1 (its strings).
    fs.lib_source(site + "/jax_plugins/xla_cuda13/xla_cuda_plugin.so", "xla_cuda_plugin.so",
                  "const char* xla_cuda_driver_name(void) { return \"libcuda.so.1\"; }\n", {},
                  plugin_rpath);
    fs.write(site + "/jax_plugins/xla_cuda13/__init__.py", "");
    dist_info(fs, site, "jax-cuda13-pjrt", "0.11.2", "",
              {"jax_plugins/xla_cuda13/xla_cuda_plugin.so"});
}

void cupy_cuda13x(CudaImage& img, const std::set<std::string>& drop, bool headers) {
    auto& fs = img.fs();
    const std::string& site = site_packages;
    std::string cu13 = site + "/nvidia/cu13/lib";
    if (!drop.count("libnvrtc.so.13")) fs.lib(cu13 + "/libnvrtc.so.13", "libnvrtc.so.13");
    if (!drop.count("libcublasLt.so.13")) fs.lib(cu13 + "/libcublasLt.so.13", "libcublasLt.so.13");
    if (!drop.count("libcublas.so.13"))
        fs.lib(cu13 + "/libcublas.so.13", "libcublas.so.13",
               drop.count("libcublasLt.so.13")
                   ? std::vector<std::string>{}
                   : std::vector<std::string>{cu13 + "/libcublasLt.so.13"},
               origin_runpath);
    if (headers)
        fs.write(site + "/nvidia/cu13/include/cuda_runtime.h", "#define CUDART_VERSION 13000\n");
    // Two backend modules as the wheel ships them: a DT_NEEDED and no RPATH
    // (testdata/gpu/env/env_readelf.txt). pathfinder preloads libcublas.so.13 from
    // the wheel dir; cuTENSOR is optional and not installed (built, linked, removed).
    std::string build = site + "/.build";
    std::string cublas = cu13 + "/libcublas.so.13";
    if (drop.count("libcublas.so.13"))
        fs.lib(cublas = build + "/libcublas.so.13", "libcublas.so.13");
    fs.lib(build + "/libcutensor.so.2", "libcutensor.so.2");
    fs.lib(site + "/cupy_backends/cuda/libs/cublas.cpython-312-x86_64-linux-gnu.so",
           "cublas.cpython-312-x86_64-linux-gnu.so", {cublas});
    fs.lib(site + "/cupy_backends/cuda/libs/cutensor.cpython-312-x86_64-linux-gnu.so",
           "cutensor.cpython-312-x86_64-linux-gnu.so", {build + "/libcutensor.so.2"});
    std::filesystem::remove_all(fs.host(build));
    // Its extension modules open nothing CUDA by DT_NEEDED at import (pathfinder does, later).
    fs.lib(site + "/cupy/_core/core.cpython-312-x86_64-linux-gnu.so",
           "core.cpython-312-x86_64-linux-gnu.so");
    fs.write(site + "/cupy/_version.py", "__version__ = '14.2.0'\n");
    dist_info(
        fs, site, "cupy-cuda13x", "14.2.0",
        "Requires-Dist: numpy<2.6,>=2.0\nRequires-Dist: "
        "cuda-pathfinder==1.*,>=1.3.4\nProvides-Extra: ctk\n"
        "Requires-Dist: cuda-toolkit[cublas,cudart,cufft,curand,cusolver,cusparse,nvrtc]==13.*; "
        "extra == \"ctk\"\n",
        {"cupy/_core/core.cpython-312-x86_64-linux-gnu.so"});
}

void onnxruntime_gpu(CudaImage& img, const std::string& cuda_lib_dir,
                     const std::set<std::string>& absent, const std::string& version) {
    auto& fs = img.fs();
    const std::string& site = site_packages;
    std::vector<std::string> needs;
    for (const char* soname :
         {"libcudart.so.12", "libcublasLt.so.12", "libcublas.so.12", "libcudnn.so.9"}) {
        // A library left out is still linked against (the provider names it), then removed.
        std::string dir = absent.count(soname) ? site + "/.build" : cuda_lib_dir;
        fs.lib(dir + "/" + soname, soname);
        needs.push_back(dir + "/" + soname);
    }
    fs.lib(site + "/onnxruntime/capi/libonnxruntime_providers_cuda.so",
           "libonnxruntime_providers_cuda.so", needs);
    fs.lib(site + "/onnxruntime/capi/libonnxruntime_providers_shared.so",
           "libonnxruntime_providers_shared.so");
    std::filesystem::remove_all(fs.host(site + "/.build"));
    fs.write(site + "/onnxruntime/__init__.py", "");
    dist_info(fs, site, "onnxruntime-gpu", version, "Requires-Dist: numpy>=1.21.6\n");
}

}  // namespace cuvet::test
