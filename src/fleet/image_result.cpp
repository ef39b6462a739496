#include "image_result.hpp"

#include "cuvet/fleet/result_store.hpp"

namespace cuvet::fleet {
namespace {

using nlohmann::json;

json result_head(const FleetImage& image, const std::string& shard) {
    json out = {{"schema", result_schema},
                {"schema_version", result_schema_version},
                {"key", image.key},
                {"digest", image.digest.empty() ? json(nullptr) : json(image.digest)},
                {"references", image.references},
                {"base_layer", image.base},
                {"shard", shard}};
    return out;
}

std::vector<std::string> ids_at(const std::vector<report::Finding>& findings,
                                report::Severity severity) {
    std::vector<std::string> ids;
    for (const auto& finding : findings)
        if (finding.severity == severity &&
            std::find(ids.begin(), ids.end(), finding.id) == ids.end())
            ids.push_back(finding.id);
    std::sort(ids.begin(), ids.end());
    return ids;
}

json pool_json(const PoolVerdict& verdict) {
    const stack::NodePool& pool = *verdict.pool;
    return {{"name", pool.name},
            {"nodes", pool.nodes.size()},
            {"driver", pool.driver ? json(pool.driver->str()) : json(nullptr)},
            {"gpu", pool.gpu.empty() ? json(nullptr) : json(pool.gpu)},
            {"product", pool.product.empty() ? json(nullptr) : json(pool.product)},
            {"verdict", verdict_of(verdict.findings)},
            {"errors", ids_at(verdict.findings, report::Severity::error)},
            {"warnings", ids_at(verdict.findings, report::Severity::warning)}};
}

}  // namespace

std::string verdict_of(const std::vector<report::Finding>& findings) {
    bool warned = false;
    for (const auto& finding : findings) {
        if (finding.severity == report::Severity::error) return "fail";
        warned = warned || finding.severity == report::Severity::warning;
    }
    return warned ? "warn" : "pass";
}

json image_result(const FleetImage& image, const std::string& shard, const ImageOutcome& outcome) {
    json out = result_head(image, shard);
    out["verdict"] = outcome.verdict;
    out["image_bytes"] = outcome.image_bytes == 0 ? json(nullptr) : json(outcome.image_bytes);
    out["bytes_inflated"] = outcome.bytes_inflated;
    out["layers_read"] = outcome.layers_read ? json(*outcome.layers_read) : json(nullptr);
    out["seconds"] = outcome.seconds;
    json pools = json::array();
    for (const auto& pool : outcome.pools) pools.push_back(pool_json(pool));
    out["pools"] = std::move(pools);
    out["report"] = outcome.report;
    return out;
}

json error_result(const FleetImage& image, const std::string& shard, const std::string& error) {
    json out = result_head(image, shard);
    out["verdict"] = "error";
    out["error"] = error;
    out["image_bytes"] = nullptr;
    out["bytes_inflated"] = 0;
    out["pools"] = json::array();
    return out;
}

}  // namespace cuvet::fleet
