// SARIF 2.1.0 (OASIS), the format code-scanning UIs ingest. Validated in tests
// against the official JSON schema (tests/report/data/sarif-2.1.0-rtm.5.json).
#include <cctype>
#include <nlohmann/json.hpp>

#include "renderers.hpp"

namespace cuvet::report::detail {

namespace {

std::string sarif_level(Severity severity) {
    switch (severity) {
        case Severity::error:
            return "error";
        case Severity::warning:
            return "warning";
        case Severity::info:
            return "note";
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

// Code scanning shows a result at its first location only, and only when it
// is a text location. So a Dockerfile line (lint, validate --dockerfile) comes
// first; else the image itself, by a name that survives the next build's tag,
// at line 1 (as trivy files image results). Paths inside the image follow as
// related locations: they are not files of the repository.
void add_locations(nlohmann::json& result, const Finding& finding, const ReportContext& context) {
    nlohmann::json locations = nlohmann::json::array();
    nlohmann::json related = nlohmann::json::array();
    for (const auto& location : finding.locations) {
        if (location.line > 0) locations.push_back(physical_location(location));
    }
    if (locations.empty() && !context.targets.empty()) {
        const bool lint = context.command == "lint";
        Location artifact{lint ? context.targets.front() : artifact_name(context.targets.front()),
                          1, 0};
        locations.push_back(physical_location(artifact));
    }
    for (const auto& location : finding.locations) {
        if (location.line > 0) continue;
        nlohmann::json item = physical_location(location);
        item["id"] = related.size();
        item["message"] = {{"text", "in the image: " + location.file}};
        related.push_back(item);
    }
    if (!locations.empty()) result["locations"] = locations;
    if (!related.empty()) result["relatedLocations"] = related;
}

nlohmann::json rule_json(const RuleInfo& rule) {
    nlohmann::json out = {{"id", rule.id},
                          {"shortDescription", {{"text", rule.title}}},
                          {"defaultConfiguration", {{"level", sarif_level(rule.severity)}}}};
    if (!rule.name.empty()) out["name"] = rule.name;
    if (!rule.rationale.empty()) out["fullDescription"] = {{"text", rule.rationale}};
    if (!rule.fix.empty() || !rule.help_markdown.empty()) {
        out["help"] = {{"text", rule.fix.empty() ? rule.title : rule.fix}};
        if (!rule.help_markdown.empty()) out["help"]["markdown"] = rule.help_markdown;
    }
    if (!rule.help_uri.empty()) out["helpUri"] = rule.help_uri;
    // GitHub code scanning files security-severity-less results by this tag.
    out["properties"] = {{"tags", {"cuda", "container"}}};
    return out;
}

// One result: its rule, level, message, locations and stable fingerprint.
nlohmann::json result_json(const Finding& finding, const ReportContext& context,
                           const std::vector<std::string>& rule_ids) {
    std::string text = finding.message.empty() ? finding.title : finding.message;
    nlohmann::json result = {{"ruleId", finding.id},
                             {"level", sarif_level(finding.severity)},
                             {"message", {{"text", text}}}};
    for (std::size_t i = 0; i < rule_ids.size(); ++i) {
        if (rule_ids[i] == finding.id) result["ruleIndex"] = i;
    }
    add_locations(result, finding, context);
    result["partialFingerprints"] = {{"cuvetFinding/v1", finding_fingerprint(finding, context)}};
    nlohmann::json properties = nlohmann::json::object();
    if (!finding.evidence.empty()) properties["evidence"] = finding.evidence;
    if (!finding.fix.empty()) properties["fix"] = finding.fix;
    if (!finding.loaded_by.empty()) properties["loaded_by"] = finding.loaded_by;
    if (!properties.empty()) result["properties"] = properties;
    return result;
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
        for (const Finding& finding : findings)
            results.push_back(result_json(finding, context, rule_ids));
        for (const Finding& finding : context.silenced) {
            nlohmann::json result = result_json(finding, context, rule_ids);
            // Code scanning lists a suppressed result as dismissed, not as an open alert.
            result["suppressions"] =
                nlohmann::json::array({{{"kind", "external"},
                                        {"status", "accepted"},
                                        {"justification", "silenced by " + context.silenced_by}}});
            results.push_back(std::move(result));
        }
        nlohmann::json driver = {{"name", "cuvet"}, {"rules", rules}};
        if (!context.tool_version.empty()) driver["version"] = context.tool_version;
        if (!context.information_uri.empty()) driver["informationUri"] = context.information_uri;
        nlohmann::json tool = {{"driver", driver}};
        // The rules database is a component of its own: a bundle changes it without a new cuvet.
        if (!context.rules_version.empty())
            tool["extensions"] =
                nlohmann::json::array({{{"name", "cuvet-rules"},
                                        {"version", context.rules_version},
                                        {"properties", {{"origin", context.rules_origin}}}}});
        nlohmann::json log = {
            {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
            {"version", "2.1.0"},
            {"runs", nlohmann::json::array({{{"tool", tool}, {"results", results}}})}};
        out << log.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    }
};

}  // namespace

std::unique_ptr<Renderer> make_sarif_renderer() { return std::make_unique<SarifRenderer>(); }

}  // namespace cuvet::report::detail
