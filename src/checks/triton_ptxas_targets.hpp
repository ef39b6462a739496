#pragma once
// CUV016's Triton half: the ptxas Triton assembles with must know the target
// GPU's architecture (private to src/checks).
#include <vector>

#include "cuvet/report/finding.hpp"
#include "cuvet/rules/database.hpp"
#include "stack_model.hpp"

namespace cuvet::checks {

// One warning per ptxas that cannot assemble for some --gpu target: too old
// for it (Triton 3.6's CUDA 12.9 ptxas-blackwell on Jetson Thor, sm_110a) or
// too new (a CUDA 13 ptxas has no sm_70). Nothing without targets, or when the
// ptxas's release is unknown.
std::vector<report::Finding> triton_ptxas_targets(const Stack& stack, const rules::Database& db,
                                                  const FrameworkInstall& torch);

}  // namespace cuvet::checks
