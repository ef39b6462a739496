#pragma once
// Reading sonames.json by_name_loads[]: the loader validates it with this, by_name_loads()
// reads it with it.
#include <functional>

#include "cuvet/rules/by_name_loads.hpp"
#include "json_node.hpp"

namespace cuvet::rules::detail {

std::vector<ByNameLoad> read_by_name_loads(
    const JsonNode& list, const std::function<Provenance(const JsonNode&)>& provenance);

}  // namespace cuvet::rules::detail
