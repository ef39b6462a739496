#pragma once
// The CUDA release an NVIDIA compiler belongs to. ptxas, nvcc, nvdisasm and
// cuobjdump print it for --version from a banner kept in .rodata:
//   "Cuda compilation tools, release 12.8, V12.8.93"
// Triton runs `ptxas --version` to pick its PTX ISA; cuvet reads the same
// banner from the file, so no NVIDIA binary is ever run.
#include <string>
#include <string_view>

namespace cuvet::elf {

// "12.8.93" from the banner's "V12.8.93"; "12.8" when only "release 12.8"
// reads; "" when `bytes` holds no banner. One memmem pass.
std::string find_cuda_tools_release(std::string_view bytes);

// "9.19.0" from cuDNN's "cudnn_version_9_19_0_56_" constant; "" when `bytes`
// holds none. One memmem pass per occurrence of the prefix.
std::string find_cudnn_release(std::string_view bytes);
// The same for a constant that starts `bytes` ("" when `bytes` does not start with one).
std::string cudnn_release_at(std::string_view bytes);
inline constexpr std::string_view cudnn_release_prefix = "cudnn_version_";

}  // namespace cuvet::elf
