// CUV010 no-kernel-for-gpu: metadata now; run() comes with the loader/inventory Stack.
#include "checks.hpp"

namespace cuvet::checks {

const ValidateCheck cuv010_no_kernel_for_gpu{
    CheckInfo{
        .id = "CUV010",
        .severity = report::Severity::error,
        .title = "No SASS or JIT-able PTX for a target GPU",
        .rationale = "GPU code ships as SASS for given architectures (sm_80 runs on 8.x GPUs with minor ≥ 0) and optionally PTX the driver can JIT for newer GPUs. A framework build without either for the target GPU dies with \"no kernel image is available for execution on the device\" (e.g. torch 2.7.0+cu128 dropped sm_50–sm_70). Targets come from --gpu (\"H100\", \"sm_90\", \"8.6\") or .cuvet.yaml.",
        .failing_example = "cuvet validate image.tar --gpu V100\n# libtorch_cuda.so fatbin: sm_75 sm_80 sm_86 sm_90 sm_100 sm_120, no PTX\n# → CUV010 no kernel for sm_70",
        .passing_example = "cuvet validate image.tar --gpu H100   # sm_90 SASS present",
        .fix = "Install a framework build that targets the GPU (an older CUDA variant such as cu126 that still has sm_50–sm_70, or build with TORCH_CUDA_ARCH_LIST including it, or add +PTX for forward compatibility).",
        .name = "no-kernel-for-gpu",
    },
    nullptr,
};

}  // namespace cuvet::checks
