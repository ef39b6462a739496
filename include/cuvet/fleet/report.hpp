#pragma once
// `cuvet fleet report DIR`: the results of every worker merged into one report (schema
// "cuvet-fleet-report" 1, docs/fleet.md, "The report"): images × verdict, the causes (check and
// library) with their counts, the node pools and which images cannot run on each, the bytes
// inflated against the images' sizes, and what changed since a previous report.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace cuvet::fleet {

inline constexpr const char* report_schema = "cuvet-fleet-report";
inline constexpr int report_schema_version = 1;

// Merges result files (read_results). Pure: the same results give the same report.
nlohmann::json merge_results(const std::vector<nlohmann::json>& results);

// Adds "changes": per reference, images new, gone, newly failing and fixed since `previous`
// (a report of this schema; Error(input) naming `previous_name` otherwise).
void add_changes(nlohmann::json& report, const nlohmann::json& previous,
                 const std::string& previous_name);

// Short enough for a CI job summary: counts, pools, the top causes, the changes, and the
// first failing images.
std::string render_markdown(const nlohmann::json& report);
// One HTML file, no external assets; tables sort on a header click and filter as one types.
// Every text that comes from an image or a reference is escaped.
std::string render_html(const nlohmann::json& report);

}  // namespace cuvet::fleet
