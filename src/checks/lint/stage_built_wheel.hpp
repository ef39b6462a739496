#pragma once
// A wheel one build stage compiles against the system's cuDNN and a later stage installs from
// a COPY --from: it links the builder's libcudnn.so.N, not whatever the installing stage has
// (an ONNX Runtime built with apt libcudnn8-dev, installed on a cuDNN 9 base).
#include <vector>

#include "cuvet/dockerfile/facts.hpp"
#include "cuvet/report/finding.hpp"
#include "cuvet/rules/database.hpp"

namespace cuvet::checks::lint {

// CUVL01 findings for every such wheel whose builder's cuDNN major the installing stage lacks.
std::vector<report::Finding> stage_built_wheel_mismatches(const dockerfile::Facts& facts,
                                                          const rules::Database& db);

}  // namespace cuvet::checks::lint
