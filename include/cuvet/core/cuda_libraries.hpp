#pragma once
// The CUDA libraries cuvet knows, one row per library file (the name after
// "lib" and before ".so"), read by the ELF dlopen-string scan, the stack's
// library families and CUV008's symbol owners. Data only, in core so that every layer may read it.
// Two names, on purpose: `stem` is the file kind the stack groups copies by
// ("cublasLt", "cudnn_ops"), `release` the component whose release it belongs
// to ("cublas" for libcublasLt and libnvblas, as the inventory names it).
#include <span>
#include <string_view>

namespace cuvet {

struct CudaLibrary {
    std::string_view stem;     // "cublasLt": libcublasLt.so.13
    std::string_view release;  // "cublas": the component the inventory names its release by
    std::string_view api;      // the prefix of its symbols ("cublasLt"), "" when not judged
    bool dlopen_scan;          // looked for in binaries' strings (dlopen names)
    bool stack_family;  // a stem the stack groups versioned copies under (its _sub-libraries too)
};

// In table order; an api prefix comes before a shorter one it starts with (cublasLt, cublas).
std::span<const CudaLibrary> cuda_libraries();

}  // namespace cuvet
