#pragma once
// `--nodes nodes.json`: the output of `kubectl get nodes -o json` read for the
// labels NVIDIA GPU Feature Discovery puts on each GPU node (docs/validate.md,
// "Against a cluster"), grouped into pools of identical GPU labels.
#include <string>
#include <string_view>
#include <vector>

#include "cuvet/stack/stack.hpp"

namespace cuvet::validate {

// Node pools with their driver and GPU, sorted by name. A NodeList, a List of
// Nodes or one Node. Throws cuvet::Error(input) with one line naming `name` on
// anything else, or when no node carries GPU Feature Discovery labels.
std::vector<stack::NodePool> read_node_pools(std::string_view json_text, const std::string& name);

// Adds each pool's driver and GPU to the targets (once each) and keeps the pools.
void add_pool_targets(stack::Targets& targets, std::vector<stack::NodePool> pools);

}  // namespace cuvet::validate
