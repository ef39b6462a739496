#pragma once
// Reading sonames[].statuses and sonames[].sub_library_uses of cudnn.json: the loader validates
// them with this, cudnn_sub_libraries() reads them with it.
#include <functional>
#include <map>
#include <optional>

#include "cuvet/rules/cudnn_sub_libraries.hpp"
#include "json_node.hpp"

namespace cuvet::rules::detail {

using SourceMap = std::map<std::string, Source>;
SourceMap read_sources(const JsonNode& root);
Provenance read_provenance(const JsonNode& fact, const std::string& table,
                           const SourceMap& sources);

// nullopt when the entry has no sub_library_uses; a use naming no soname of `libraries` fails.
std::optional<CudnnSubLibraries> read_cudnn_sub_libraries(
    const JsonNode& sonames_entry, const std::vector<std::string>& libraries,
    const std::function<Provenance(const JsonNode&)>& provenance);

}  // namespace cuvet::rules::detail
