// CUVG02 loaded-cudnn-differs: reported by the live check (src/sandbox), documented here
#include "checks/checks.hpp"

namespace cuvet::checks {

const LiveCheck cuvg02_loaded_cudnn_differs{CheckInfo{
    .id = "CUVG02",
    .severity = report::Severity::error,
    .title = "loaded cuDNN differs from the static inventory",
    .rationale =
        "The cuDNN that really loaded is not the one the image's inventory (and the framework's "
        "build) says: another copy comes first on the loader's path, or cuDNN 9's shim ran the "
        "sub-libraries of another copy. A framework built against one cuDNN refuses or misbehaves "
        "with another (\"Loaded runtime CuDNN library 8.1.0 but source was compiled with 8.6.0\").",
    .failing_example = "cuDNN 8.9.2 was loaded from /usr/lib/x86_64-linux-gnu/libcudnn.so.8, but "
                       "the image's inventory says 9.1.0 (pip nvidia-cudnn-cu12 9.1.0.70)",
    .passing_example = "the cuDNN that loads is the version the inventory names",
    .fix = "Remove the other cuDNN copy from the loader's path (LD_LIBRARY_PATH, ld.so.conf), or "
           "install the cuDNN version the framework was built against.",
    .name = "loaded-cudnn-differs",
}};

}  // namespace cuvet::checks
