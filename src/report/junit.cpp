// JUnit XML for CI test tabs: one test case per check that ran clean, one
// failing test case per finding (error and warning); info findings pass with
// their text in system-out.
#include <map>

#include "renderers.hpp"

namespace cuvet::report::detail {

namespace {

std::string details(const Finding& finding) {
    std::string text = finding.message;
    for (const auto& location : finding.locations) {
        text += "\nat " + location.file +
                (location.line > 0 ? ":" + std::to_string(location.line) : "");
    }
    for (const auto& line : finding.evidence) text += "\n" + line;
    if (!finding.fix.empty()) text += "\nfix: " + finding.fix;
    return text;
}

class JunitRenderer : public Renderer {
public:
    void render(const std::vector<Finding>& findings, const ReportContext& context,
                std::ostream& out) const override {
        std::map<std::string, int> per_rule;
        for (const auto& finding : findings) ++per_rule[finding.id];
        std::string suite = "cuvet";
        if (!context.command.empty()) suite += " " + context.command;
        for (const auto& target : context.targets) suite += " " + target;

        std::string cases;
        int tests = 0, failures = 0;
        for (const auto& rule : context.rules) {
            if (per_rule.count(rule.id)) continue;
            ++tests;
            cases += "    <testcase classname=\"cuvet." + xml_escape(rule.id) + "\" name=\"" +
                     xml_escape(rule.id + " " + rule.title) + "\"/>\n";
        }
        for (const Finding& finding : findings) {
            ++tests;
            Location where = primary_location(finding, context);
            std::string name = finding.id + " " + finding.title;
            if (!where.file.empty()) name += " (" + where.file + ")";
            cases += "    <testcase classname=\"cuvet." + xml_escape(finding.id) + "\" name=\"" +
                     xml_escape(name) + "\"";
            if (!where.file.empty()) cases += " file=\"" + xml_escape(where.file) + "\"";
            cases += ">\n";
            if (finding.severity == Severity::info) {
                cases += "      <system-out>" + xml_escape(details(finding)) + "</system-out>\n";
            } else {
                ++failures;
                std::string message = finding.message.empty() ? finding.title : finding.message;
                cases += "      <failure type=\"" + std::string(to_string(finding.severity)) +
                         "\" message=\"" + xml_escape(message) + "\">" +
                         xml_escape(details(finding)) + "</failure>\n";
            }
            cases += "    </testcase>\n";
        }
        int skipped = 0;
        for (const Finding& finding : context.silenced) {
            ++tests, ++skipped;
            cases += "    <testcase classname=\"cuvet." + xml_escape(finding.id) + "\" name=\"" +
                     xml_escape(finding.id + " " + finding.title) +
                     "\">\n      <skipped message=\"" +
                     xml_escape("silenced by " + context.silenced_by) + "\">" +
                     xml_escape(details(finding)) + "</skipped>\n    </testcase>\n";
        }
        out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
        out << "<testsuites name=\"cuvet\" tests=\"" << tests << "\" failures=\"" << failures
            << "\">\n";
        out << "  <testsuite name=\"" << xml_escape(suite) << "\" tests=\"" << tests
            << "\" failures=\"" << failures << "\" errors=\"0\" skipped=\"" << skipped << "\">\n";
        out << cases;
        out << "  </testsuite>\n</testsuites>\n";
    }
};

}  // namespace

std::unique_ptr<Renderer> make_junit_renderer() { return std::make_unique<JunitRenderer>(); }

}  // namespace cuvet::report::detail
