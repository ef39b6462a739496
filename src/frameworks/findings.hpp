#pragma once
// The frameworks' own judging (Framework::gpu_library_findings and ::gpu_compiler_findings):
// one src/frameworks/<name>_findings.cpp per framework whose failure reads unlike the
// others'. Private to src/frameworks; the checks call them through the Framework.
#include <vector>

#include "cuvet/frameworks/finding_support.hpp"
#include "cuvet/frameworks/framework.hpp"

namespace cuvet::frameworks::detail {

std::vector<report::Finding> jax_gpu_library_findings(const stack::Stack&, const rules::Database&,
                                                      const stack::FrameworkInstall&);
std::vector<report::Finding> jax_gpu_compiler_findings(const stack::Stack&, const rules::Database&,
                                                       const stack::FrameworkInstall&);
std::vector<report::Finding> cupy_gpu_library_findings(const stack::Stack&, const rules::Database&,
                                                       const stack::FrameworkInstall&);
std::vector<report::Finding> cupy_gpu_compiler_findings(const stack::Stack&, const rules::Database&,
                                                        const stack::FrameworkInstall&);
std::vector<report::Finding> onnxruntime_gpu_library_findings(const stack::Stack&,
                                                              const rules::Database&,
                                                              const stack::FrameworkInstall&);
std::vector<report::Finding> pytorch_gpu_compiler_findings(const stack::Stack&,
                                                           const rules::Database&,
                                                           const stack::FrameworkInstall&);
// CUV016's Triton half: one warning per ptxas that cannot assemble for some --gpu target: too
// old for it (Triton 3.6's CUDA 12.9 ptxas-blackwell on Jetson Thor, sm_110a) or too new (a
// CUDA 13 ptxas has no sm_70). Nothing without targets, or when the ptxas's release is unknown.
std::vector<report::Finding> triton_ptxas_targets(const stack::Stack& stack,
                                                  const rules::Database& db,
                                                  const stack::FrameworkInstall& torch);

// What `import torch` raises when `library` is the first one torch._C cannot load.
std::string pytorch_import_error(const stack::Stack& stack, const stack::FrameworkInstall& torch,
                                 const std::string& library);

}  // namespace cuvet::frameworks::detail
