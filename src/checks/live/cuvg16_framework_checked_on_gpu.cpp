// CUVG16 framework-checked-on-gpu: reported by the live check (src/sandbox), documented here
#include "checks/checks.hpp"

namespace cuvet::checks {

const LiveCheck cuvg16_framework_checked_on_gpu{CheckInfo{
    .id = "CUVG16",
    .severity = report::Severity::info,
    .title = "framework checked on the GPU",
    .rationale = "What a framework's smoke test saw when it worked: the framework's version, the "
                 "GPU it ran on and the cuDNN it loaded, or that an ONNX Runtime is a CPU-only "
                 "build. A record of the live verdict, not a problem.",
    .failing_example =
        "<framework> <version> ran its GPU check and matched the CPU answer; loaded cuDNN "
        "8.9.2 from /usr/local/lib/python3.10/site-packages/nvidia/cudnn/lib",
    .passing_example = "(no framework to probe)",
    .fix = "Nothing to fix.",
    .name = "framework-checked-on-gpu",
}};

}  // namespace cuvet::checks
