// CUVG11 framework-cpu-fallback: reported by the live check (src/sandbox), documented here
#include "checks/checks.hpp"

namespace cuvet::checks {

const LiveCheck cuvg11_framework_cpu_fallback{CheckInfo{
    .id = "CUVG11",
    .severity = report::Severity::error,
    .title = "framework silently fell back to the CPU",
    .rationale =
        "The framework imported but runs on the CPU without failing: its device list is the CPU "
        "after a GPU plugin failed to configure, its CUDA availability check answers False, or a "
        "GPU build runs its CPU execution provider (docs/probe.md names each framework's case). A "
        "GPU image that computes on the CPU passes every smoke test and is many times slower.",
    .failing_example = "<framework> <version> silently fell back to the CPU: no GPU device; it "
                       "said: plugin configuration error: Unable to load cuDNN",
    .passing_example = "the framework's devices include the GPU",
    .fix = "Make the CUDA libraries the framework reports loadable in the image, so its GPU "
           "backend starts.",
    .name = "framework-cpu-fallback",
}};

}  // namespace cuvet::checks
