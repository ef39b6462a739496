// CUV013 driver-libs-baked: metadata now; run() comes with the loader/inventory Stack.
#include "checks.hpp"

namespace cuvet::checks {

const ValidateCheck cuv013_driver_libs_baked{
    CheckInfo{
        .id = "CUV013",
        .severity = report::Severity::error,
        .title = "Driver libraries baked into the image",
        .rationale = "libcuda.so.1, libnvidia-ml.so.1 and the other user-mode driver libraries must come from the host: the NVIDIA container runtime mounts the host driver's copies. A copy baked into the image can be found first and mismatch the kernel module (\"CUDA driver version is insufficient\", \"Failed to initialize NVML: Driver/library version mismatch\"). The cuda-compat package under /usr/local/cuda/compat is the one intended exception and is not reported.",
        .failing_example = "COPY libcuda.so.535.104.05 /usr/lib/x86_64-linux-gnu/libcuda.so.1\n# → CUV013",
        .passing_example = "# no libcuda.so.1 in the image; the container runtime injects the host's",
        .fix = "Remove the driver libraries from the image (apt: do not install nvidia-driver-* or libnvidia-compute-*; for builds needing libcuda.so link against the stubs in /usr/local/cuda/lib64/stubs).",
        .name = "driver-libs-baked",
    },
    nullptr,
};

}  // namespace cuvet::checks
