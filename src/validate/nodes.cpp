// GPU Feature Discovery labels → node pools. Label names as NVIDIA documents them:
// https://github.com/NVIDIA/k8s-device-plugin/blob/main/docs/gpu-feature-discovery/README.md#generated-labels
#include "cuvet/validate/nodes.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <nlohmann/json.hpp>
#include <tuple>

#include "cuvet/core/error.hpp"

namespace cuvet::validate {

namespace {

using nlohmann::json;

// Cloud and autoscaler labels that name the pool a node belongs to, first wins.
constexpr std::string_view pool_labels[] = {
    "cloud.google.com/gke-nodepool",  "eks.amazonaws.com/nodegroup",
    "kubernetes.azure.com/agentpool", "karpenter.sh/nodepool",
    "alpha.eksctl.io/nodegroup-name", "node-pool",
};

std::string label(const json& labels, std::string_view key) {
    auto it = labels.find(std::string(key));
    return it != labels.end() && it->is_string() ? it->get<std::string>() : "";
}

// cuda.driver-version.full, else its parts, else the deprecated cuda.driver.* (rev keeps its
// leading zero: 535.104.05).
std::string driver_of(const json& labels) {
    if (auto full = label(labels, "nvidia.com/cuda.driver-version.full"); !full.empty())
        return full;
    for (auto [major, minor, rev] :
         {std::array<std::string_view, 3>{"nvidia.com/cuda.driver-version.major",
                                          "nvidia.com/cuda.driver-version.minor",
                                          "nvidia.com/cuda.driver-version.revision"},
          std::array<std::string_view, 3>{"nvidia.com/cuda.driver.major",
                                          "nvidia.com/cuda.driver.minor",
                                          "nvidia.com/cuda.driver.rev"}}) {
        const auto a = label(labels, major), b = label(labels, minor), c = label(labels, rev);
        if (!a.empty() && !b.empty()) return a + "." + b + (c.empty() ? "" : "." + c);
    }
    return "";
}

struct NodeFacts {
    std::string pool, driver, gpu, product;
    auto key() const { return std::tie(pool, driver, gpu, product); }
};

std::vector<const json*> nodes_of(const json& doc, const std::string& name) {
    std::vector<const json*> out;
    if (!doc.is_object())
        fail_input(name + ": not a Kubernetes Node or NodeList (expected a JSON object)");
    if (doc.contains("items")) {
        if (!doc["items"].is_array()) fail_input(name + ": 'items' is not an array");
        for (const auto& item : doc["items"]) out.push_back(&item);
    } else if (doc.value("kind", "") == "Node") {
        out.push_back(&doc);
    } else {
        fail_input(name +
                   ": not a Kubernetes Node or NodeList (no 'items'; expected `kubectl get nodes "
                   "-o json`)");
    }
    return out;
}

}  // namespace

std::vector<stack::NodePool> read_node_pools(std::string_view json_text, const std::string& name) {
    const auto doc = json::parse(json_text, nullptr, false);
    if (doc.is_discarded()) fail_input(name + ": not valid JSON");
    std::map<std::tuple<std::string, std::string, std::string, std::string>, stack::NodePool> pools;
    std::size_t index = 0;
    for (const json* node : nodes_of(doc, name)) {
        const std::string where = name + ": items[" + std::to_string(index++) + "]";
        if (!node->is_object() || !node->contains("metadata") || !(*node)["metadata"].is_object())
            fail_input(where + ": a node without metadata");
        const auto& meta = (*node)["metadata"];
        const std::string node_name = meta.value("name", "");
        if (!meta.contains("labels")) continue;
        const auto& labels = meta["labels"];
        if (!labels.is_object()) fail_input(where + ": metadata.labels is not an object");
        NodeFacts facts;
        facts.driver = driver_of(labels);
        const auto cmaj = label(labels, "nvidia.com/gpu.compute.major"),
                   cmin = label(labels, "nvidia.com/gpu.compute.minor");
        if (!cmaj.empty()) facts.gpu = cmaj + "." + (cmin.empty() ? "0" : cmin);
        facts.product = label(labels, "nvidia.com/gpu.product");
        if (facts.driver.empty() && facts.gpu.empty() && facts.product.empty())
            continue;  // not a GPU node
        if (!facts.driver.empty() && !rules::Version::parse(facts.driver))
            fail_input(where + " (" + node_name + "): driver labels give '" + facts.driver +
                       "', not a driver version");
        for (auto key : pool_labels)
            if (facts.pool = label(labels, key); !facts.pool.empty()) break;
        auto& pool = pools[facts.key()];
        pool.nodes.push_back(node_name.empty() ? where : node_name);
        pool.driver = rules::Version::parse(facts.driver);
        pool.gpu = facts.gpu;
        pool.product = facts.product;
        pool.name = facts.pool;
    }
    if (pools.empty())
        fail_input(
            name +
            ": no node has NVIDIA GPU Feature Discovery labels (nvidia.com/cuda.driver-version.*, "
            "nvidia.com/gpu.compute.*, nvidia.com/gpu.product)");
    std::map<std::string, int> uses;
    for (const auto& [key, pool] : pools) ++uses[pool.name];
    std::vector<stack::NodePool> out;
    for (auto& [key, pool] : pools) {
        // Unnamed pools, and a named pool whose nodes differ, are named by what sets them apart.
        std::string facts = (pool.product.empty() ? "unknown GPU" : pool.product) + ", driver " +
                            (pool.driver ? pool.driver->str() : "unknown");
        pool.name = pool.name.empty()     ? facts
                    : uses[pool.name] > 1 ? pool.name + " (" + facts + ")"
                                          : pool.name;
        std::sort(pool.nodes.begin(), pool.nodes.end());
        out.push_back(std::move(pool));
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    return out;
}

void add_pool_targets(stack::Targets& targets, std::vector<stack::NodePool> pools) {
    for (const auto& pool : pools) {
        if (pool.driver && std::find(targets.drivers.begin(), targets.drivers.end(),
                                     *pool.driver) == targets.drivers.end())
            targets.drivers.push_back(*pool.driver);
        if (!pool.gpu.empty() &&
            std::find(targets.gpus.begin(), targets.gpus.end(), pool.gpu) == targets.gpus.end())
            targets.gpus.push_back(pool.gpu);
    }
    targets.pools = std::move(pools);
}

}  // namespace cuvet::validate
