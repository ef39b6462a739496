#pragma once
// Libraries of the NVIDIA driver that nvidia-container-toolkit mounts from the
// host into every GPU container (libnvidia-container's `library` lists in
// src/nvc_info.c: utility_libs, compute_libs, ngx/graphics libs). An image
// that ships its own copy either has it replaced by the mount or, earlier in
// the search order, shadows the host's — both worth reporting.
#include <span>
#include <string_view>

namespace cuvet::loader {

std::span<const std::string_view> host_driver_libraries();
// True for "libcuda.so.1", "libnvidia-ml.so.1", … (any of the names above,
// compared without the version suffix as the toolkit mounts every version).
bool is_host_driver_library(std::string_view soname);

}  // namespace cuvet::loader
