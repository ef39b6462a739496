// GitLab Code Quality: the Code Climate issue list GitLab reads from
// `artifacts: reports: codequality` and shows in merge requests. One issue per
// finding, at its Dockerfile line, else at the file or image it is about (line 1).
// Severities as hadolint maps them: error blocker, warning major, info info.
#include <nlohmann/json.hpp>

#include "renderers.hpp"

namespace cuvet::report::detail {

namespace {

std::string codeclimate_severity(Severity severity) {
    switch (severity) {
        case Severity::error:
            return "blocker";
        case Severity::warning:
            return "major";
        case Severity::info:
            return "info";
    }
    return "major";
}

Location issue_location(const Finding& finding, const ReportContext& context) {
    for (const auto& location : finding.locations)
        if (location.line > 0) return location;
    Location fallback;
    if (!context.targets.empty())
        fallback.file = context.command == "lint" ? context.targets.front()
                                                  : artifact_name(context.targets.front());
    fallback.line = 1;
    return fallback;
}

class CodeClimateRenderer : public Renderer {
public:
    void render(const std::vector<Finding>& findings, const ReportContext& context,
                std::ostream& out) const override {
        nlohmann::json issues = nlohmann::json::array();
        for (const Finding& finding : findings) {
            const Location location = issue_location(finding, context);
            nlohmann::json lines = {{"begin", location.line}};
            if (location.end_line > location.line) lines["end"] = location.end_line;
            nlohmann::json issue = {
                {"type", "issue"},
                {"check_name", finding.id},
                {"description",
                 finding.id + ": " + (finding.message.empty() ? finding.title : finding.message)},
                {"categories", {"Bug Risk"}},
                {"severity", codeclimate_severity(finding.severity)},
                {"fingerprint", finding_fingerprint(finding, context)},
                {"location", {{"path", location.file}, {"lines", lines}}}};
            if (!finding.fix.empty()) issue["content"] = {{"body", finding.fix}};
            issues.push_back(issue);
        }
        out << issues.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    }
};

}  // namespace

std::unique_ptr<Renderer> make_codeclimate_renderer() {
    return std::make_unique<CodeClimateRenderer>();
}

}  // namespace cuvet::report::detail
