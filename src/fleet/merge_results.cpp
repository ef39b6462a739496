// Merging the results of a fleet scan: counts, causes, pools, bytes.
#include <algorithm>
#include <map>
#include <set>

#include "cuvet/fleet/report.hpp"

namespace cuvet::fleet {
namespace {

using nlohmann::json;

// The library a finding is about: the first location that is a shared object, by its stem
// ("/usr/local/cuda/lib64/libcudart.so.12.4.1" → "libcudart"); "" when none is.
std::string library_of(const json& finding) {
    for (const auto& location : finding.value("locations", json::array())) {
        if (!location.is_object()) continue;
        std::string file = location.value("file", "");
        file = file.substr(file.rfind('/') + 1);
        if (const auto so = file.find(".so"); so != std::string::npos && so > 0)
            return file.substr(0, so);
    }
    return "";
}

std::string first_reference(const json& result) {
    const auto& references = result.value("references", json::array());
    return references.empty() ? result.value("key", "") : references.front().get<std::string>();
}

struct Cause {
    std::string severity, title;
    std::set<std::string> images;  // first references
};

struct Pool {
    json facts;
    std::size_t checked = 0;
    std::vector<std::string> cannot_run, warned;
    std::map<std::string, std::size_t> checks;  // check id → images it stops on this pool
};

json image_row(const json& result, const std::set<std::string>& causes,
               const std::vector<std::string>& failing_pools) {
    json row = {{"reference", first_reference(result)},
                {"references", result.value("references", json::array())},
                {"key", result.value("key", "")},
                {"digest", result.value("digest", json(nullptr))},
                {"base_layer", result.value("base_layer", "")},
                {"verdict", result.value("verdict", "error")},
                {"causes", std::vector<std::string>(causes.begin(), causes.end())},
                {"failing_pools", failing_pools}};
    if (result.contains("error")) row["error"] = result["error"];
    return row;
}

}  // namespace

json merge_results(const std::vector<json>& results) {
    json images = json::array();
    std::map<std::string, std::size_t> counts = {
        {"pass", 0}, {"warn", 0}, {"fail", 0}, {"error", 0}};
    std::map<std::pair<std::string, std::string>, Cause> causes;
    std::map<std::string, Pool> pools;
    std::uint64_t inflated = 0, sizes = 0;
    std::size_t sized = 0;
    // With a fact store, the layers each check read: how often the fleet read a layer again.
    std::size_t layer_reads = 0;
    std::set<std::string> layers_read;
    for (const auto& result : results) {
        for (const auto& diff_id : result.value("layers_read", json::array()))
            if (diff_id.is_string()) ++layer_reads, layers_read.insert(diff_id.get<std::string>());
        const std::string reference = first_reference(result);
        ++counts[result.value("verdict", "error")];
        inflated += result.value("bytes_inflated", std::uint64_t{0});
        if (result.contains("image_bytes") && result["image_bytes"].is_number_integer() &&
            result["image_bytes"].get<std::int64_t>() >= 0) {
            sizes += result["image_bytes"].get<std::uint64_t>();
            ++sized;
        }
        std::set<std::string> image_causes;
        for (const auto& finding :
             result.value("report", json::object()).value("findings", json::array())) {
            if (!finding.is_object()) continue;
            const std::string severity = finding.value("severity", "");
            if (severity != "error" && severity != "warning") continue;
            const std::string id = finding.value("id", ""), library = library_of(finding);
            Cause& cause = causes[{id, library}];
            cause.severity = severity == "error" || cause.severity == "error" ? "error" : "warning";
            cause.title = finding.value("title", "");
            cause.images.insert(reference);
            image_causes.insert(library.empty() ? id : id + " " + library);
        }
        std::vector<std::string> failing_pools;
        for (const auto& verdict : result.value("pools", json::array())) {
            if (!verdict.is_object()) continue;
            const std::string name = verdict.value("name", "");
            Pool& pool = pools[name];
            pool.facts = {{"name", name},
                          {"nodes", verdict.value("nodes", 0)},
                          {"driver", verdict.value("driver", json(nullptr))},
                          {"gpu", verdict.value("gpu", json(nullptr))},
                          {"product", verdict.value("product", json(nullptr))}};
            ++pool.checked;
            const std::string pool_verdict = verdict.value("verdict", "");
            if (pool_verdict == "fail") {
                pool.cannot_run.push_back(reference);
                failing_pools.push_back(name);
                for (const auto& id : verdict.value("errors", json::array())) ++pool.checks[id];
            } else if (pool_verdict == "warn") {
                pool.warned.push_back(reference);
            }
        }
        images.push_back(image_row(result, image_causes, failing_pools));
    }
    std::sort(images.begin(), images.end(), [](const json& a, const json& b) {
        return a["reference"].get<std::string>() < b["reference"].get<std::string>();
    });
    json cause_list = json::array();
    for (const auto& [key, cause] : causes)
        cause_list.push_back({{"check", key.first},
                              {"library", key.second.empty() ? json(nullptr) : json(key.second)},
                              {"severity", cause.severity},
                              {"title", cause.title},
                              {"images", cause.images.size()},
                              {"references", cause.images}});
    std::stable_sort(cause_list.begin(), cause_list.end(), [](const json& a, const json& b) {
        return std::make_pair(a["severity"] == "error", a["images"].get<std::size_t>()) >
               std::make_pair(b["severity"] == "error", b["images"].get<std::size_t>());
    });
    json pool_list = json::array();
    for (auto& [name, pool] : pools) {
        json row = pool.facts;
        std::sort(pool.cannot_run.begin(), pool.cannot_run.end());
        std::sort(pool.warned.begin(), pool.warned.end());
        row["images"] = pool.checked;
        row["cannot_run"] = pool.cannot_run.size();
        row["warned"] = pool.warned.size();
        row["cannot_run_images"] = pool.cannot_run;
        row["checks"] = pool.checks;
        pool_list.push_back(std::move(row));
    }
    return {{"schema", report_schema},
            {"schema_version", report_schema_version},
            {"counts",
             {{"images", results.size()},
              {"pass", counts["pass"]},
              {"warn", counts["warn"]},
              {"fail", counts["fail"]},
              {"error", counts["error"]}}},
            {"bytes",
             {{"inflated", inflated},
              {"image_sizes", sized == 0 ? json(nullptr) : json(sizes)},
              {"images_with_size", sized},
              {"layer_reads", layer_reads},
              {"distinct_layers_read", layers_read.size()}}},
            {"pools", pool_list},
            {"causes", cause_list},
            {"images", images}};
}

}  // namespace cuvet::fleet
