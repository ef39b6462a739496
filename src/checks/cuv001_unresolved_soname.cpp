// CUV001 unresolved-soname: metadata now; run() comes with the loader/inventory Stack.
#include "checks.hpp"

namespace cuvet::checks {

const ValidateCheck cuv001_unresolved_soname{
    CheckInfo{
        .id = "CUV001",
        .severity = report::Severity::error,
        .title = "A needed library that nothing in the image provides",
        .rationale = "The dynamic loader searches DT_RPATH, LD_LIBRARY_PATH, DT_RUNPATH, /etc/ld.so.cache and the default directories for every DT_NEEDED name (and frameworks dlopen() cuDNN and cuBLAS by name). When no copy exists the process dies at start with \"error while loading shared libraries: libcudnn.so.8: cannot open shared object file\", or TensorFlow logs \"Could not load dynamic library 'libcudnn.so.8'\" and silently runs on the CPU. Host-injected driver libraries (libcuda.so.1, libnvidia-ml.so.1) are provided by the container runtime and are not reported.",
        .failing_example = "FROM nvidia/cuda:12.2.2-runtime-ubuntu22.04\nRUN pip install tensorflow==2.15.0\n# libtensorflow_framework dlopens libcudnn.so.8; the runtime flavour has no cuDNN\n# → CUV001 libcudnn.so.8 needed by .../libtensorflow_cc.so.2: not found (search trace follows)",
        .passing_example = "FROM nvidia/cuda:12.2.2-cudnn8-runtime-ubuntu22.04\nRUN pip install tensorflow==2.15.0\n# libcudnn.so.8 resolves via /etc/ld.so.cache → /usr/lib/x86_64-linux-gnu/libcudnn.so.8",
        .fix = "Install the library the consumer needs (the pip wheel nvidia-cudnn-cu12, the apt package libcudnn8, or a -cudnn base image), or add the directory that holds it to the consumer's RUNPATH or to LD_LIBRARY_PATH. The search trace shows every directory that was tried.",
        .name = "unresolved-soname",
    },
    nullptr,
};

}  // namespace cuvet::checks
