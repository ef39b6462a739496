// Machine-readable report, schema "cuvet-report" version 1 (docs/report-formats.md).
#include <nlohmann/json.hpp>

#include "renderers.hpp"

namespace cuvet::report::detail {

namespace {

nlohmann::json location_json(const Location& location) {
    nlohmann::json out = {{"file", location.file}};
    if (location.line > 0) out["line"] = location.line;
    if (location.end_line > 0) out["end_line"] = location.end_line;
    return out;
}

nlohmann::json finding_json(const Finding& finding) {
    nlohmann::json locations = nlohmann::json::array();
    for (const auto& location : finding.locations) locations.push_back(location_json(location));
    nlohmann::json item = {{"id", finding.id},       {"severity", to_string(finding.severity)},
                           {"title", finding.title}, {"message", finding.message},
                           {"locations", locations}, {"evidence", finding.evidence},
                           {"fix", finding.fix}};
    if (!finding.loaded_by.empty()) item["loaded_by"] = finding.loaded_by;
    return item;
}

class JsonRenderer : public Renderer {
public:
    void render(const std::vector<Finding>& findings, const ReportContext& context,
                std::ostream& out) const override {
        nlohmann::json report;
        report["schema"] = "cuvet-report";
        report["schema_version"] = 1;
        report["tool"] = {{"name", "cuvet"}, {"version", context.tool_version}};
        report["command"] = context.command;
        report["targets"] = context.targets;
        if (!context.rules_version.empty())
            report["rules"] = {{"version", context.rules_version},
                               {"origin", context.rules_origin}};
        nlohmann::json summary = {
            {"total", findings.size()}, {"error", 0}, {"warning", 0}, {"info", 0}};
        for (const auto& finding : findings) {
            summary[std::string(to_string(finding.severity))] =
                summary[std::string(to_string(finding.severity))].get<int>() + 1;
        }
        report["summary"] = summary;
        if (!context.summary.empty()) report["stack"] = context.summary;
        nlohmann::json list = nlohmann::json::array();
        for (const Finding& finding : findings) list.push_back(finding_json(finding));
        report["findings"] = list;
        if (!context.silenced.empty()) {
            nlohmann::json silenced = nlohmann::json::array();
            for (const Finding& finding : context.silenced) {
                nlohmann::json item = finding_json(finding);
                item["silenced_by"] = context.silenced_by;
                silenced.push_back(std::move(item));
            }
            report["silenced"] = silenced;
        }
        // Invalid UTF-8 in a path must not abort the report: replace it.
        out << report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    }
};

}  // namespace

std::unique_ptr<Renderer> make_json_renderer() { return std::make_unique<JsonRenderer>(); }

}  // namespace cuvet::report::detail
