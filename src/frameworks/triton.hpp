#pragma once
// Triton is torch.compile's GPU compiler, installed and pinned by torch: its
// tools are the torch install's (pytorch.cpp). Private to src/frameworks.
#include "cuvet/frameworks/framework.hpp"
#include "cuvet/inventory/analysis.hpp"
#include "cuvet/stack/stack.hpp"

namespace cuvet::frameworks {

// The C compiler Triton builds its launcher with and the ptxas it assembles with.
void model_triton(const inventory::Analysis& analysis, const Environment& env,
                  stack::FrameworkInstall& fw);

}  // namespace cuvet::frameworks
