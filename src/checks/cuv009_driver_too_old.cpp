// CUV009 driver-too-old: metadata now; run() comes with the loader/inventory Stack.
#include "checks.hpp"

namespace cuvet::checks {

const ValidateCheck cuv009_driver_too_old{
    CheckInfo{
        .id = "CUV009",
        .severity = report::Severity::error,
        .title = "The target driver is older than the image's CUDA requires",
        .rationale = "Each CUDA toolkit needs a minimum driver (CUDA 12.4.1: 550.54.15). With an older driver the first CUDA call fails with \"CUDA driver version is insufficient for CUDA runtime version\" (error 35), unless minor-version compatibility applies (same major, driver ≥ the major's floor, no PTX JIT of newer code) or the image carries the cuda-compat package (datacenter GPUs only). The targets come from --driver or the drivers listed in .cuvet.yaml.",
        .failing_example = "cuvet validate image.tar --driver 535.104.05\n# image: CUDA 12.4.1 (needs 550.54.15); no cuda-compat in the image\n# → CUV009 (minor-version compatibility would allow it, PTX JIT of 12.4 code would fail)",
        .passing_example = "cuvet validate image.tar --driver 550.54.15",
        .fix = "Upgrade the fleet driver to at least the required version, build on an older CUDA base (12.2.2 for a 535 driver), or add cuda-compat-X-Y to the image for datacenter GPUs.",
        .name = "driver-too-old",
    },
    nullptr,
};

}  // namespace cuvet::checks
