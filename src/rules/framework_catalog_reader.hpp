#pragma once
// Reads and checks frameworks.json's "catalog" (rules/SCHEMA.md), for the loader of the
// table and for the built-in catalog the scan uses.
#include "cuvet/rules/framework_catalog.hpp"
#include "table_loaders.hpp"

namespace cuvet::rules::detail {

FrameworkCatalog read_framework_catalog(const JsonNode& catalog,
                                        const ProvenanceReader& provenance);

}  // namespace cuvet::rules::detail
