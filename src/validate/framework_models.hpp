#pragma once
// How GPU frameworks really start, as facts for the checks: which package
// gives a framework its GPU side (JAX's jax-cudaNN-plugin), which CUDA
// libraries it opens itself and from where (its own preload dirs first, then
// ld.so from the object that dlopens them), and where its compiler looks for
// ptxas and libdevice. Private to src/validate; stack_builder calls it.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cuvet/checks/stack.hpp"
#include "cuvet/inventory/analysis.hpp"
#include "cuvet/loader/loader.hpp"

namespace cuvet::validate {

// Fills the GPU package facts of one framework install from the inventory:
// JAX's plugin and PJRT packages (CUDA major from the name, "cuda13" variant),
// a CPU-only jaxlib ("cpu" variant), CuPy's cupy-cudaNNx name.
void attach_gpu_package(const inventory::Inventory& inventory,
                        const inventory::Component& component, checks::FrameworkInstall& install);

// How a framework imports one of its extension modules, where that differs
// from a plain ld.so load of the module: libraries it dlopen()s by path first
// (so a DT_NEEDED without RPATH still resolves, by SONAME, to that copy), and
// DT_NEEDED names whose failure only disables an optional feature.
struct ImportModel {
    std::vector<std::string> preloads;  // image paths, dlopen()ed before the module
    std::set<std::string> optional;     // DT_NEEDED names the framework may do without
    std::string preload_rule;           // how a resolution names the preload
};

// By image path of the extension module. CuPy 14: cuda-pathfinder loads each
// CUDA library its modules need from the nvidia wheel dirs; cuTENSOR, NCCL,
// cuSPARSELt and cuDSS are optional (CuPy reports them unavailable).
std::map<std::string, ImportModel> framework_import_models(
    const inventory::Analysis& analysis, const std::vector<checks::FrameworkInstall>& frameworks);

// Resolves what each framework opens itself (FrameworkInstall::loads) and
// finds its compiler tools (FrameworkInstall::tools). `analysis` ELF `needed`
// lists are touched while resolving and restored.
void model_framework_loads(inventory::Analysis& analysis, const loader::Loader& loader,
                           checks::Stack& stack);

}  // namespace cuvet::validate
