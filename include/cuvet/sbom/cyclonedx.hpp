#pragma once
// `cuvet inventory --format cyclonedx`: the inventory as a CycloneDX 1.6 JSON BOM
// (docs/inventory-schema.md, "CycloneDX"): one component per copy, with its purl,
// the files that carry it (sha256 each) and properties for sonames, GPU
// architectures and the driver floor.
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "cuvet/image/image.hpp"
#include "cuvet/inventory/analysis.hpp"
#include "cuvet/rules/database.hpp"
#include "cuvet/stack/stack.hpp"

namespace cuvet::sbom {

// sha256 hex of each regular file in `paths` (data paths of the final tree), read
// in one more pass over the image's layers; a file whose layer cannot be read again
// is left out.
std::map<std::string, std::string> file_sha256(const image::Image& image,
                                               const image::FileTree& tree,
                                               const std::set<std::string>& paths,
                                               unsigned workers);

struct BomInput {
    const inventory::Analysis* analysis = nullptr;
    const stack::Stack* stack = nullptr;  // for the driver floor and the CUDA runtime
    const rules::Database* db = nullptr;
    std::map<std::string, std::string> sha256;  // file_sha256
    std::string image_name;
};

// Every file the components list (what file_sha256 should hash).
std::set<std::string> component_files(const inventory::Inventory& inventory);

// Deterministic: no timestamp or random serial number, so two runs are byte-identical.
nlohmann::json cyclonedx(const BomInput& input);

// "pkg:pypi/nvidia-cudnn-cu12@9.1.0.70" …: the component's package URL (purl-spec).
std::string purl(const inventory::Component& component, const inventory::Distro& distro);

}  // namespace cuvet::sbom
