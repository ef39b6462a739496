// CUV004 cudnn-older-than-build: metadata now; run() comes with the loader/inventory Stack.
#include "checks.hpp"

namespace cuvet::checks {

const ValidateCheck cuv004_cudnn_older_than_build{
    CheckInfo{
        .id = "CUV004",
        .severity = report::Severity::error,
        .title = "cuDNN older than the framework was built with",
        .rationale = "Frameworks check the cuDNN they load against the one they were compiled with. TensorFlow refuses an older minor: \"Loaded runtime CuDNN library: 8.1.0 but source was compiled with: 8.6.0. CuDNN library needs to have matching major version and equal or higher minor version.\" PyTorch and ONNX Runtime need the same major. The check compares the version the loader will actually map with the framework's build version from the rules database or the install's build info.",
        .failing_example = "FROM nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04\nRUN apt-get install -y --allow-downgrades libcudnn8=8.4.1.50-1+cuda11.6\nRUN pip install tensorflow==2.12.0                  # built with cuDNN 8.6\n# → CUV004 tensorflow 2.12.0 was built with cuDNN 8.6; the image loads 8.4.1",
        .passing_example = "FROM nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04\nRUN apt-get install -y libcudnn8=8.6.0.163-1+cuda11.8\nRUN pip install tensorflow==2.12.0",
        .fix = "Install a cuDNN of the same major with an equal or newer minor than the framework's build (TensorFlow 2.12: cuDNN 8.6 or newer 8.x), or move to the framework release built for the cuDNN you have.",
        .name = "cudnn-older-than-build",
    },
    nullptr,
};

}  // namespace cuvet::checks
