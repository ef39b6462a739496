#pragma once
// What the real frameworks printed on the GPU test machine (testdata/gpu/agreement/run5:
// torch, JAX, CuPy, ONNX Runtime and Triton run in variant roots of the H100's own
// environment): the ground truth a static finding's quote is checked against.
#include <string>

namespace cuvet::test {

// The error text (without its exception type, "RuntimeError: ") one framework printed in one
// variant, as recorded in smoke.jsonl; empty when the run has none.
std::string recorded_framework_error(const std::string& variant, const std::string& framework);

}  // namespace cuvet::test
