// GNU error format ("file:line: severity: message [ID]"), which editors jump to.
#include "cuvet/core/printable.hpp"
#include "renderers.hpp"

namespace cuvet::report::detail {

namespace {

class GnuRenderer : public Renderer {
public:
    void render(const std::vector<Finding>& findings, const ReportContext& context,
                std::ostream& out) const override {
        for (const Finding& finding : findings) {
            Location where = primary_location(finding, context);
            std::string message = finding.message.empty() ? finding.title : finding.message;
            // One line per finding: later lines of a multi-line message are joined.
            for (char& c : message) {
                if (c == '\n') c = ' ';
            }
            out << (where.file.empty() ? "cuvet" : printable(where.file));
            if (where.line > 0) out << ":" << where.line;
            out << ": " << to_string(finding.severity) << ": " << printable(message) << " ["
                << finding.id << "]\n";
        }
    }
};

}  // namespace

std::unique_ptr<Renderer> make_gnu_renderer() { return std::make_unique<GnuRenderer>(); }

}  // namespace cuvet::report::detail
