// `validate --nodes`: GPU Feature Discovery labels (the label names NVIDIA documents in
// k8s-device-plugin docs/gpu-feature-discovery/README.md, "Generated Labels") become
// target drivers and GPUs, and findings name the node pools the image cannot run on.
#include "cuvet/validate/nodes.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "cuvet/core/error.hpp"
#include "support/process.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"

using namespace cuvet;
using namespace cuvet::test;
namespace fs = std::filesystem;

namespace {

nlohmann::json node(const std::string& name, nlohmann::json labels) {
    return {{"apiVersion", "v1"},
            {"kind", "Node"},
            {"metadata", {{"name", name}, {"labels", std::move(labels)}}}};
}

// Two GKE pools (one on the deprecated driver labels, one on the current ones) and a CPU node.
std::string cluster() {
    nlohmann::json old_labels = {{"cloud.google.com/gke-nodepool", "t4-legacy"},
                                 {"nvidia.com/cuda.driver.major", "470"},
                                 {"nvidia.com/cuda.driver.minor", "57"},
                                 {"nvidia.com/cuda.driver.rev", "02"},
                                 {"nvidia.com/gpu.compute.major", "7"},
                                 {"nvidia.com/gpu.compute.minor", "5"},
                                 {"nvidia.com/gpu.family", "turing"},
                                 {"nvidia.com/gpu.product", "Tesla-T4"}};
    nlohmann::json new_labels = {{"cloud.google.com/gke-nodepool", "h100"},
                                 {"nvidia.com/cuda.driver-version.full", "550.54.15"},
                                 {"nvidia.com/cuda.driver-version.major", "550"},
                                 {"nvidia.com/gpu.compute.major", "9"},
                                 {"nvidia.com/gpu.compute.minor", "0"},
                                 {"nvidia.com/gpu.family", "hopper"},
                                 {"nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3"}};
    nlohmann::json list = {
        {"apiVersion", "v1"}, {"kind", "List"}, {"items", nlohmann::json::array()}};
    list["items"].push_back(node("gke-t4-1", old_labels));
    list["items"].push_back(node("gke-t4-2", old_labels));
    list["items"].push_back(node("gke-h100-1", new_labels));
    list["items"].push_back(node("cpu-1", {{"kubernetes.io/os", "linux"}}));
    return list.dump(2);
}

std::string input_error(const std::string& text) {
    try {
        validate::read_node_pools(text, "nodes.json");
    } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::input);
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("nodes: GPU Feature Discovery labels group nodes into pools with a driver and a GPU",
          "[validate][nodes]") {
    const auto pools = validate::read_node_pools(cluster(), "nodes.json");
    REQUIRE(pools.size() == 2);
    CHECK(pools[0].name == "h100");
    CHECK(pools[0].driver->str() == "550.54.15");
    CHECK(pools[0].gpu == "9.0");
    CHECK(pools[1].name == "t4-legacy");
    CHECK(pools[1].driver->str() == "470.57.02");  // the revision keeps its leading zero
    CHECK(pools[1].gpu == "7.5");
    CHECK(pools[1].nodes == std::vector<std::string>{"gke-t4-1", "gke-t4-2"});
    stack::Targets targets;
    validate::add_pool_targets(targets, pools);
    CHECK(targets.drivers.size() == 2);
    CHECK(targets.gpus == std::vector<std::string>{"9.0", "7.5"});
}

TEST_CASE("nodes: bad node documents are one error line", "[validate][nodes]") {
    CHECK(input_error("[") == "nodes.json: not valid JSON");
    CHECK(input_error("[]") ==
          "nodes.json: not a Kubernetes Node or NodeList (expected a JSON object)");
    CHECK(input_error("{\"kind\": \"Pod\"}") ==
          "nodes.json: not a Kubernetes Node or NodeList (no 'items'; expected `kubectl get nodes "
          "-o json`)");
    CHECK(input_error("{\"items\": [{\"metadata\": {\"name\": \"a\", \"labels\": {}}}]}")
              .find("no node has NVIDIA GPU Feature Discovery labels") != std::string::npos);
    CHECK(input_error("{\"items\": [{\"metadata\": {\"name\": \"a\", \"labels\": "
                      "{\"nvidia.com/cuda.driver-version.full\": \"new\"}}}]}") ==
          "nodes.json: items[0] (a): driver labels give 'new', not a driver version");
}

TEST_CASE("validate --nodes: the sample image cannot run on the pool with a 470 driver",
          "[validate][nodes][cli]") {
    const auto sample = fs::path(CUVET_BUILD_DIR) / "testdata" / "sample-image.tar";
    if (!fs::exists(sample)) {
        CUVET_SKIP("no sample image built");
    }
    TempDir dir;
    const auto nodes = dir / "nodes.json";
    write_file(nodes, cluster());
    const auto r =
        run_cuvet({"validate", sample.string(), "--nodes", nodes.string(), "--format", "json"});
    INFO(r.out << r.err);
    CHECK(r.exit_code == 1);
    const auto doc = nlohmann::json::parse(r.out, nullptr, false);
    REQUIRE(doc.is_object());
    int cuv009 = 0;
    for (const auto& f : doc["findings"]) {
        if (f["id"] != "CUV009") continue;
        ++cuv009;
        const std::string message = f["message"];
        CHECK(message.find(
                  "node pools that cannot run it: t4-legacy (2 nodes: gke-t4-1, gke-t4-2)") !=
              std::string::npos);
        CHECK(message.find("h100") == std::string::npos);
    }
    CHECK(cuv009 == 1);
    write_file(nodes, "{\"items\": 3}");
    const auto bad = run_cuvet({"validate", sample.string(), "--nodes", nodes.string()});
    CHECK(bad.exit_code == 3);
    CHECK(bad.err == "cuvet: error: " + nodes.string() + ": 'items' is not an array\n");
}
