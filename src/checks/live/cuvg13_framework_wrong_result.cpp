// CUVG13 framework-wrong-result: reported by the live check (src/sandbox), documented here
#include "checks/checks.hpp"

namespace cuvet::checks {

const LiveCheck cuvg13_framework_wrong_result{CheckInfo{
    .id = "CUVG13",
    .severity = report::Severity::error,
    .title = "framework computed a wrong result on the GPU",
    .rationale = "The framework's convolution ran on the GPU but differs from a numpy answer on "
                 "the CPU: wrong numbers that no error reports.",
    .failing_example =
        "<framework> <version>'s GPU convolution differs from the CPU answer (max abs error 3.2)",
    .passing_example = "the GPU answer matches the CPU answer",
    .fix = "The GPU stack computes wrong results: check the driver, the framework's CUDA libraries "
           "and the GPU's health.",
    .name = "framework-wrong-result",
}};

}  // namespace cuvet::checks
