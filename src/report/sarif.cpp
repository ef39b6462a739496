// SARIF 2.1.0 (OASIS), the format code-scanning UIs ingest. Validated in tests
// against the official JSON schema (tests/report/data/sarif-2.1.0-rtm.5.json).
#include <cctype>
#include <nlohmann/json.hpp>

#include "renderers.hpp"

namespace cuvet::report::detail {

namespace {

std::string sarif_level(Severity severity) {
    switch (severity) {
        case Severity::error: return "error";
        case Severity::warning: return "warning";
        case Severity::info: return "note";
    }
    return "warning";
}

// artifactLocation.uri is a URI reference: keep '/', escape what URIs forbid.
std::string to_uri(std::string_view path) {
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : path) {
        bool keep = std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~' ||
                    c == '+' || c == '@' || c == ':' || c == '=';
        if (keep) {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

nlohmann::json physical_location(const Location& location) {
    nlohmann::json physical = {{"artifactLocation", {{"uri", to_uri(location.file)}}}};
    if (location.line > 0) {
        nlohmann::json region = {{"startLine", location.line}};
        if (location.end_line >= location.line) region["endLine"] = location.end_line;
        physical["region"] = region;
    }
    return {{"physicalLocation", physical}};
}

nlohmann::json rule_json(const RuleInfo& rule) {
    nlohmann::json out = {{"id", rule.id},
                          {"shortDescription", {{"text", rule.title}}},
                          {"defaultConfiguration", {{"level", sarif_level(rule.severity)}}}};
    if (!rule.name.empty()) out["name"] = rule.name;
    if (!rule.rationale.empty()) out["fullDescription"] = {{"text", rule.rationale}};
    if (!rule.fix.empty()) out["help"] = {{"text", rule.fix}};
    return out;
}

class SarifRenderer : public Renderer {
public:
    void render(const std::vector<Finding>& findings, const ReportContext& context,
                std::ostream& out) const override {
        nlohmann::json rules = nlohmann::json::array();
        std::vector<std::string> rule_ids;
        for (const auto& rule : context.rules) {
            rules.push_back(rule_json(rule));
            rule_ids.push_back(rule.id);
        }
        nlohmann::json results = nlohmann::json::array();
        for (const Finding& finding : sorted_for_report(findings)) {
            std::string text = finding.message.empty() ? finding.title : finding.message;
            nlohmann::json result = {{"ruleId", finding.id},
                                     {"level", sarif_level(finding.severity)},
                                     {"message", {{"text", text}}}};
            for (std::size_t i = 0; i < rule_ids.size(); ++i) {
                if (rule_ids[i] == finding.id) result["ruleIndex"] = i;
            }
            // Code-scanning UIs drop results without a location: fall back to the target.
            nlohmann::json locations = nlohmann::json::array();
            if (finding.locations.empty()) {
                Location fallback = primary_location(finding, context);
                if (!fallback.file.empty()) locations.push_back(physical_location(fallback));
            }
            for (const auto& location : finding.locations) locations.push_back(physical_location(location));
            if (!locations.empty()) result["locations"] = locations;
            nlohmann::json properties = nlohmann::json::object();
            if (!finding.evidence.empty()) properties["evidence"] = finding.evidence;
            if (!finding.fix.empty()) properties["fix"] = finding.fix;
            if (!finding.loaded_by.empty()) properties["loaded_by"] = finding.loaded_by;
            if (!properties.empty()) result["properties"] = properties;
            results.push_back(result);
        }
        nlohmann::json driver = {{"name", "cuvet"}, {"rules", rules}};
        if (!context.tool_version.empty()) driver["version"] = context.tool_version;
        nlohmann::json log = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                              {"version", "2.1.0"},
                              {"runs", nlohmann::json::array({{{"tool", {{"driver", driver}}},
                                                               {"results", results}}})}};
        out << log.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    }
};

}  // namespace

std::unique_ptr<Renderer> make_sarif_renderer() { return std::make_unique<SarifRenderer>(); }

}  // namespace cuvet::report::detail
