#pragma once
// The bridge from what the scan learned (inventory::Analysis) and the loader
// emulation to the Stack the checks read (docs/architecture.md, "The validate path").
#include "cuvet/inventory/analysis.hpp"
#include "cuvet/rules/database.hpp"
#include "cuvet/stack/stack.hpp"

namespace cuvet::validate {

// CUDA-stack library families by file name: "libcudnn_ops_infer.so.8.6.0" →
// "cudnn_ops_infer", "libcublasLt.so.12" → "cublasLt"; "" for anything else.
std::string cuda_family(std::string_view file_name);

// Builds the Stack. `analysis` is borrowed (the Stack points into its ELF
// facts) and its ELF `needed` lists are touched while resolving and restored.
// Consumers are framework libraries, ELF files under site-packages/*/lib and
// every ELF that needs (or dlopens) a CUDA-stack soname; dlopen names are
// resolved as if they were DT_NEEDED of the object that holds them.
// With `db`, cuDNN's main library also resolves the sub-libraries it dlopen()s
// (rules/cudnn.json).
// `nvidia_start`: the container starts as nvidia-container-toolkit starts it, ldconfig over
// the image's ld.so.conf (loader::RuntimeStart::nvidia); false: the image's cache as it is.
stack::Stack build_stack(const inventory::Analysis& analysis, stack::Targets targets,
                         std::string image_name = "", const rules::Database* db = nullptr,
                         bool nvidia_start = true);

}  // namespace cuvet::validate
