// Checkstyle XML (version 4.3), which many CI annotators and reviewdog read.
#include <map>

#include "renderers.hpp"

namespace cuvet::report::detail {

namespace {

class CheckstyleRenderer : public Renderer {
public:
    void render(const std::vector<Finding>& findings, const ReportContext& context,
                std::ostream& out) const override {
        // Checkstyle groups errors by file, in file order.
        std::map<std::string, std::vector<const Finding*>> by_file;
        for (const auto& finding : findings)
            by_file[primary_location(finding, context).file].push_back(&finding);
        out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\">\n";
        for (const auto& [file, list] : by_file) {
            out << "  <file name=\"" << xml_escape(file) << "\">\n";
            for (const Finding* finding : list) {
                Location where = primary_location(*finding, context);
                std::string message = finding->message.empty() ? finding->title : finding->message;
                out << "    <error line=\"" << (where.line > 0 ? where.line : 1)
                    << "\" column=\"1\" severity=\"" << to_string(finding->severity)
                    << "\" message=\"" << xml_escape(message) << "\" source=\"cuvet."
                    << xml_escape(finding->id) << "\"/>\n";
            }
            out << "  </file>\n";
        }
        out << "</checkstyle>\n";
    }
};

}  // namespace

std::unique_ptr<Renderer> make_checkstyle_renderer() {
    return std::make_unique<CheckstyleRenderer>();
}

}  // namespace cuvet::report::detail
