#pragma once
// How GPU frameworks really start, as facts for the checks: which package
// gives a framework its GPU side (JAX's jax-cudaNN-plugin), which CUDA
// libraries it opens itself and from where (its own preload dirs first, then
// ld.so from the object that dlopens them), and where its compiler looks for
// ptxas and libdevice. Each framework's model is its file in src/frameworks/;
// these run them over the image. Private to src/validate; stack_builder calls it.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cuvet/frameworks/framework.hpp"
#include "cuvet/inventory/analysis.hpp"
#include "cuvet/loader/loader.hpp"
#include "cuvet/stack/stack.hpp"

namespace cuvet::validate {

// Fills the GPU package facts of one framework install from the inventory:
// JAX's plugin and PJRT packages (CUDA major from the name, "cuda13" variant),
// a CPU-only jaxlib ("cpu" variant), CuPy's cupy-cudaNNx name.
void attach_gpu_package(const inventory::Inventory& inventory,
                        const inventory::Component& component, stack::FrameworkInstall& install);

using ImportModel = frameworks::ImportModel;

// By image path of the extension module. CuPy 14: cuda-pathfinder loads each
// CUDA library its modules need from the nvidia wheel dirs; cuTENSOR, NCCL,
// cuSPARSELt and cuDSS are optional (CuPy reports them unavailable).
std::map<std::string, ImportModel> framework_import_models(
    const inventory::Analysis& analysis, const std::vector<stack::FrameworkInstall>& frameworks);

// Resolves what each framework opens itself (FrameworkInstall::loads) and
// finds its compiler tools (FrameworkInstall::tools). `analysis` ELF `needed`
// lists are touched while resolving and restored.
void model_framework_loads(const inventory::Analysis& analysis, const loader::Loader& loader,
                           stack::Stack& stack);

// Marks the modules a framework imports only at the first use of one API
// (ElfObject::imported_on_first_use_of): the catalog's lazy_modules of the installed release.
void mark_lazily_imported_modules(stack::Stack& stack);

}  // namespace cuvet::validate
