// The CUDA runtime an image runs, as CUV007, CUV009, freeze and the SBOM name it.
#include "cuvet/stack/stack_facts.hpp"
#include "image_paths.hpp"

namespace cuvet::stack {

namespace {

RuntimeCudaFact runtime_of(const rules::Version& version, std::string source,
                           std::vector<std::string> provenance = {}) {
    return RuntimeCudaFact{version, version.size() < 2, std::move(source), std::move(provenance)};
}

}  // namespace

std::optional<RuntimeCudaFact> runtime_cuda_of(const Stack& stack) {
    for (const auto& fw : stack.frameworks) {
        const auto roots = framework_objects(stack, fw);
        for (const auto& file : load_closure(stack, roots, true)) {
            const auto* copy = stack.library(file);
            if (copy == nullptr || copy->family != "cudart" || !copy->version) continue;
            return runtime_of(*copy->version,
                              "the libcudart " + last_component(fw.root) + " loads, " + copy->path,
                              copy->provenance);
        }
    }
    for (const auto& fw : stack.frameworks)
        if (fw.built_cuda)
            return runtime_of(
                *fw.built_cuda,
                last_component(fw.root) + " " + fw.version.str() + "'s build metadata",
                fw.provenance);
    if (stack.cuda_version)
        return runtime_of(*stack.cuda_version, "the CUDA toolkit of the image",
                          stack.cuda_version_provenance);
    for (const auto& copy : stack.libraries)
        if (copy.family == "cudart" && copy.version)
            return runtime_of(*copy.version, describe(copy), copy.provenance);
    for (const auto& copy : stack.libraries)
        if (copy.cuda_major && !copy.owner.empty())
            return runtime_of(
                rules::Version::parse(std::to_string(*copy.cuda_major)).value(),
                copy.owner + ", a package for CUDA " + std::to_string(*copy.cuda_major),
                copy.provenance);
    return std::nullopt;
}

}  // namespace cuvet::stack
