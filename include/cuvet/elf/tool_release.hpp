#pragma once
// The CUDA release an NVIDIA compiler belongs to. ptxas, nvcc, nvdisasm and
// cuobjdump print it for --version from a banner kept in .rodata:
//   "Cuda compilation tools, release 12.8, V12.8.93"
// Triton runs `ptxas --version` to pick its PTX ISA; cuvet reads the same
// banner from the file, so no NVIDIA binary is ever run.
#include <cstddef>
#include <string>
#include <string_view>

namespace cuvet::elf {

// "12.8.93" from the banner's "V12.8.93"; "12.8" when only "release 12.8"
// reads; "" when `bytes` holds no banner that reads. One memmem pass per
// occurrence of the banner.
std::string find_cuda_tools_release(std::string_view bytes);
// The same for a banner that starts `bytes` ("" otherwise). It reads at most
// release_window bytes.
std::string cuda_tools_release_at(std::string_view bytes);
inline constexpr std::string_view cuda_tools_banner = "Cuda compilation tools, release ";

// "9.19.0" from cuDNN's "cudnn_version_9_19_0_56_" constant; "" when `bytes`
// holds none. One memmem pass per occurrence of the prefix.
std::string find_cudnn_release(std::string_view bytes);
// The same for a constant that starts `bytes` ("" otherwise). It reads at most
// release_window bytes.
std::string cudnn_release_at(std::string_view bytes);
inline constexpr std::string_view cudnn_release_prefix = "cudnn_version_";

// What the *_at readers may look at: a stream keeps this much after each
// occurrence it records (elf/elf_stream.cpp).
inline constexpr std::size_t release_window = 128;

}  // namespace cuvet::elf
