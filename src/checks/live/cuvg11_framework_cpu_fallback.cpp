// CUVG11 framework-cpu-fallback: reported by the live check (src/sandbox), documented here
#include "checks/checks.hpp"

namespace cuvet::checks {

const LiveCheck cuvg11_framework_cpu_fallback{CheckInfo{
    .id = "CUVG11",
    .severity = report::Severity::error,
    .title = "framework silently fell back to the CPU",
    .rationale = "The framework imported but runs on the CPU without failing: JAX's devices are "
                 "the CPU after a plugin configuration error, torch.cuda.is_available() is False, "
                 "an ONNX Runtime GPU build runs on CPUExecutionProvider. A GPU image that "
                 "computes on the CPU passes every smoke test and is many times slower.",
    .failing_example =
        "jax 0.4.30 silently fell back to the CPU: jax.devices() is [CpuDevice(id=0)]; it said: "
        "Jax plugin configuration error: Unable to load cuDNN",
    .passing_example = "the framework's devices include the GPU",
    .fix = "Make the CUDA libraries the framework reports loadable in the image, so its GPU "
           "backend starts.",
    .name = "framework-cpu-fallback",
}};

}  // namespace cuvet::checks
