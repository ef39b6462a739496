// CUV008 missing-symbols: metadata now; run() comes with the loader/inventory Stack.
#include "checks.hpp"

namespace cuvet::checks {

const ValidateCheck cuv008_missing_symbols{
    CheckInfo{
        .id = "CUV008",
        .severity = report::Severity::error,
        .title = "Symbols a consumer imports that the library it will load does not export",
        .rationale = "The loader binds every undefined symbol (and every GLIBCXX_/CUDNN_ version it needs) to the libraries it mapped. A library of the right soname but an older release lacks newer entry points, and the process dies with \"undefined symbol: cudnnGetLibConfig\" or \"version `libcublasLt.so.12' not found\" at load time or, for lazy binding, at the first call.",
        .failing_example = "libonnxruntime_providers_cuda.so imports cublasLtMatmulAlgoGetHeuristic@libcublasLt.so.12\nthe image's libcublasLt.so.12 (12.0.1) does not define it\n# → CUV008",
        .passing_example = "libcublasLt.so.12 from CUDA 12.2 defines every symbol the provider imports",
        .fix = "Upgrade the library to at least the release the consumer was built against (its package pin), or install the consumer build made for the older library.",
        .name = "missing-symbols",
    },
    nullptr,
};

}  // namespace cuvet::checks
