// How CUV009 and CUV010 name the --nodes pools a target driver or GPU stands for.
#include "cuvet/stack/stack_facts.hpp"

namespace cuvet::stack {

namespace {

constexpr std::size_t listed_nodes = 3;

std::string describe(const NodePool& pool) {
    std::string nodes;
    for (std::size_t i = 0; i < pool.nodes.size() && i < listed_nodes; ++i)
        nodes += (i ? ", " : "") + pool.nodes[i];
    if (pool.nodes.size() > listed_nodes) nodes += ", …";
    return pool.name + " (" + std::to_string(pool.nodes.size()) +
           (pool.nodes.size() == 1 ? " node: " : " nodes: ") + nodes + ")";
}

template <typename Match>
std::string pools_where(const Targets& targets, Match match) {
    std::string out;
    for (const auto& pool : targets.pools)
        if (match(pool)) out += (out.empty() ? "" : ", ") + describe(pool);
    return out;
}

}  // namespace

std::string pools_with_driver(const Targets& targets, const rules::Version& driver) {
    return pools_where(targets, [&](const NodePool& p) { return p.driver && *p.driver == driver; });
}

std::string pools_with_gpu(const Targets& targets, std::string_view gpu) {
    return pools_where(targets, [&](const NodePool& p) { return !p.gpu.empty() && p.gpu == gpu; });
}

}  // namespace cuvet::stack
