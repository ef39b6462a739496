#pragma once
// Loaders for the tables that live outside loader.cpp: frameworks.json,
// python_packages.json, ngc_containers.json, nccl.json and kernel_compilers.json. Each
// validates its schema (rules/SCHEMA.md) and returns the number of facts it read.
#include <functional>
#include <vector>

#include "cuvet/rules/database.hpp"
#include "json_node.hpp"

namespace cuvet::rules::detail {

using ProvenanceReader = std::function<Provenance(const JsonNode&)>;

std::size_t load_frameworks(const JsonNode& root, const ProvenanceReader& provenance,
                            std::vector<FrameworkBuild>& builds,
                            std::vector<CudnnLoadRule>& load_rules,
                            std::vector<FrameworkErrorText>& error_texts,
                            FrameworkCatalog& catalog_out);

std::size_t load_python_packages(const JsonNode& root, const ProvenanceReader& provenance,
                                 std::vector<PythonPackage>& packages);

std::size_t load_ngc_containers(const JsonNode& root, const ProvenanceReader& provenance,
                                std::vector<NgcContainerRelease>& releases);

std::size_t load_nccl(const JsonNode& root, const ProvenanceReader& provenance,
                      std::vector<NcclRelease>& releases, std::vector<NcclPin>& pins);

std::size_t load_kernel_compilers(const JsonNode& root, const ProvenanceReader& provenance,
                                  std::vector<KernelCompiler>& compilers);

// The optional "released" object of a NCCL or kernel compiler release ({date, source,
// confidence, note}): validated here, read only by the staleness test (rules/SCHEMA.md).
void check_release_date(const JsonNode& row, const ProvenanceReader& provenance);

// Requires-Dist style pins: [{"name": "nvidia-cudnn-cu12", "spec": ">=9.8,<10.0"}].
std::vector<Requirement> read_requirements(const JsonNode& array);

}  // namespace cuvet::rules::detail
