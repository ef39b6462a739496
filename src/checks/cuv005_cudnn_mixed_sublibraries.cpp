// CUV005 cudnn-mixed-sublibraries: metadata now; run() comes with the loader/inventory Stack.
#include "checks.hpp"

namespace cuvet::checks {

const ValidateCheck cuv005_cudnn_mixed_sublibraries{
    CheckInfo{
        .id = "CUV005",
        .severity = report::Severity::error,
        .title = "cuDNN sub-libraries of different versions",
        .rationale = "libcudnn.so.8 and .so.9 load their sub-libraries (libcudnn_ops_infer, libcudnn_cnn_infer, … in 8; libcudnn_graph, libcudnn_engines_*, … in 9) at run time, and require them to be the same release. A partial upgrade or a copied file leaves libcudnn.so.8.9.x next to libcudnn_cnn_infer.so.8.6.x; the first convolution then fails with CUDNN_STATUS_VERSION_MISMATCH or a symbol lookup error.",
        .failing_example = "/usr/lib/x86_64-linux-gnu/libcudnn.so.8 -> libcudnn.so.8.9.2\n/usr/lib/x86_64-linux-gnu/libcudnn_cnn_infer.so.8 -> libcudnn_cnn_infer.so.8.6.0\n# → CUV005 libcudnn_cnn_infer.so.8.6.0 is not the release of libcudnn.so.8.9.2",
        .passing_example = "/usr/lib/x86_64-linux-gnu/libcudnn.so.8 -> libcudnn.so.8.9.2\n/usr/lib/x86_64-linux-gnu/libcudnn_cnn_infer.so.8 -> libcudnn_cnn_infer.so.8.9.2",
        .fix = "Install all of cuDNN from one package (apt libcudnn8 or the pip wheel nvidia-cudnn-cuXX), never by copying single files; remove the stray sub-libraries.",
        .name = "cudnn-mixed-sublibraries",
    },
    nullptr,
};

}  // namespace cuvet::checks
