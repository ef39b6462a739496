#pragma once
// One cuDNN convolution forward on the GPU, judged against the CPU reference.
#include <string>
#include <vector>

#include "conv_reference.hpp"
#include "cuda_api.hpp"

namespace cuvet::probe {

struct ConvRun {
    bool half = false;
    std::string failed_stage;  // the call that failed ("" when the convolution ran)
    std::string status;        // that call's status by name
    int algo = -1;
    int math_type = -1;
    std::size_t workspace = 0;
    std::vector<std::string> attempts;  // algorithms cuDNN offered that failed to run
    Tolerance tolerance{};
    Comparison comparison;
    bool ran = false;
    bool ok = false;  // ran and every element within tolerance
};

ConvRun run_conv(const RuntimeApi& cuda, const CudnnApi& cudnn, abi::cudnnHandle_t handle,
                 bool half);

}  // namespace cuvet::probe
