#include "cuvet/loader/driver_libs.hpp"

#include <array>

namespace cuvet::loader {

namespace {

// From libnvidia-container (src/nvc_info.c: utility_libs, compute_libs,
// video_libs, graphics_libs, ngx_libs), which nvidia-container-toolkit uses to
// decide what to mount. Only the stems: the toolkit mounts the host's exact
// version and its soname links.
constexpr std::array<std::string_view, 36> driver_stems = {
    // utility
    "libnvidia-ml.so",
    "libnvidia-cfg.so",
    "libnvidia-nscq.so",
    // compute
    "libcuda.so",
    "libcudadebugger.so",
    "libnvidia-opencl.so",
    "libnvidia-gpucomp.so",
    "libnvidia-ptxjitcompiler.so",
    "libnvidia-fatbinaryloader.so",
    "libnvidia-allocator.so",
    "libnvidia-compiler.so",
    "libnvidia-pkcs11.so",
    "libnvidia-pkcs11-openssl3.so",
    "libnvidia-nvvm.so",
    // video
    "libvdpau_nvidia.so",
    "libnvidia-encode.so",
    "libnvidia-opticalflow.so",
    "libnvcuvid.so",
    // graphics
    "libnvidia-eglcore.so",
    "libnvidia-glcore.so",
    "libnvidia-tls.so",
    "libnvidia-glsi.so",
    "libnvidia-fbc.so",
    "libnvidia-ifr.so",
    "libnvidia-rtcore.so",
    "libnvoptix.so",
    "libGLX_nvidia.so",
    "libEGL_nvidia.so",
    "libGLESv2_nvidia.so",
    "libGLESv1_CM_nvidia.so",
    "libnvidia-glvkspirv.so",
    "libnvidia-cbl.so",
    "libnvidia-egl-gbm.so",
    "libnvidia-egl-wayland.so",
    "libnvidia-vulkan-producer.so",
    // ngx
    "libnvidia-ngx.so",
};

}  // namespace

std::span<const std::string_view> host_driver_libraries() { return driver_stems; }

bool is_host_driver_library(std::string_view soname) {
    for (auto stem : driver_stems) {
        if (soname.substr(0, stem.size()) != stem) continue;
        auto rest = soname.substr(stem.size());
        if (rest.empty() || rest[0] == '.') return true;
    }
    return false;
}

}  // namespace cuvet::loader
