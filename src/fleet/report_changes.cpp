// What changed since the previous fleet report, per reference: a tag is what people deploy,
// and its digest changes with every rebuild.
#include <map>

#include "cuvet/core/error.hpp"
#include "cuvet/fleet/report.hpp"

namespace cuvet::fleet {
namespace {

using nlohmann::json;

std::map<std::string, std::string> verdict_by_reference(const json& report) {
    std::map<std::string, std::string> out;
    for (const auto& image : report.value("images", json::array()))
        for (const auto& reference : image.value("references", json::array()))
            if (reference.is_string()) out[reference] = image.value("verdict", "error");
    return out;
}

bool failing(const std::string& verdict) { return verdict == "fail" || verdict == "error"; }

}  // namespace

void add_changes(json& report, const json& previous, const std::string& previous_name) {
    if (!previous.is_object() || previous.value("schema", "") != report_schema)
        fail_input(previous_name + ": not a cuvet fleet report (schema " +
                   std::string(report_schema) + ")");
    const auto before = verdict_by_reference(previous);
    const auto now = verdict_by_reference(report);
    json changes = {{"previous", previous_name}, {"new_images", json::array()},
                    {"gone", json::array()},     {"newly_failing", json::array()},
                    {"fixed", json::array()},    {"verdict_changes", json::array()}};
    for (const auto& [reference, verdict] : now) {
        const auto old = before.find(reference);
        if (old == before.end()) {
            changes["new_images"].push_back(reference);
            continue;
        }
        if (old->second == verdict) continue;
        changes["verdict_changes"].push_back(
            {{"reference", reference}, {"from", old->second}, {"to", verdict}});
        if (failing(verdict) && !failing(old->second))
            changes["newly_failing"].push_back(reference);
        if (!failing(verdict) && failing(old->second)) changes["fixed"].push_back(reference);
    }
    for (const auto& [reference, verdict] : before)
        if (!now.count(reference)) changes["gone"].push_back(reference);
    report["changes"] = std::move(changes);
}

}  // namespace cuvet::fleet
