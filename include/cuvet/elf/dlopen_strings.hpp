#pragma once
// Library names a binary may dlopen: TensorFlow and ONNX Runtime load cuDNN
// and cuBLAS by name at run time instead of linking them, so DT_NEEDED does
// not show them. We look for names of CUDA-stack libraries in the read-only
// data instead.
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace cuvet::elf {

// At most this many distinct names are kept per file.
inline constexpr std::size_t max_dlopen_candidates = 256;

// Every token matching
//   lib(cudnn|cudart|cublas|cublasLt|cufft|curand|cusolver|cusparse|nvrtc|
//       nvJitLink|nccl|nvinfer|cuda|nvidia-ml)\w*\.so(\.\d+)*
// that stands on its own (not preceded by a word character, not followed by
// one), in order of first appearance, without duplicates. A name inside a
// longer string ("could not load libcudnn.so.9: …") counts too. One pass over
// `bytes` at memchr speed.
std::vector<std::string> find_dlopen_candidates(std::string_view bytes);

// Every occurrence, repeats included, in order: `found(start, name)` with the
// name's position in `bytes`; returning false stops the search. (A stream
// scans a file in pieces and keeps the positions: elf/elf_stream.cpp.)
void for_each_dlopen_candidate(std::string_view bytes,
                               const std::function<bool(std::size_t, std::string_view)>& found);

}  // namespace cuvet::elf
