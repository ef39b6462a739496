// CUVG03 cuda-init-failed: reported by the live check (src/sandbox), documented here
#include "checks/checks.hpp"

namespace cuvet::checks {

const LiveCheck cuvg03_cuda_init_failed{CheckInfo{
    .id = "CUVG03",
    .severity = report::Severity::error,
    .title = "CUDA or cuDNN initialisation failed",
    .rationale = "cuInit or cudnnCreate failed inside the image: a CUDA runtime newer than the "
                 "host driver, the toolkit's link-time stub libcuda loaded instead of the "
                 "driver's, or a cuDNN built for another CUDA major. Nothing the workload does on "
                 "the GPU can work then (CUDNN_STATUS_NOT_INITIALIZED, \"CUDA driver version is "
                 "insufficient for CUDA runtime version\").",
    .failing_example =
        "cuInit failed with CUDA_ERROR_STUB_LIBRARY: the image loaded the CUDA toolkit's stub "
        "/usr/local/cuda/lib64/stubs/libcuda.so.1 instead of the host driver's libcuda.so.1",
    .passing_example = "cuInit and cudnnCreate succeed inside the image",
    .fix = "Match the CUDA runtime to the host driver (or ship cuda-compat) and cuDNN to the "
           "runtime; keep the stubs directory off LD_LIBRARY_PATH and RPATH.",
    .name = "cuda-init-failed",
}};

}  // namespace cuvet::checks
