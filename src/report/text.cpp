// Human output: grouped by severity, errors first; ANSI colour only when
// asked (TTY and no NO_COLOR). Verbose: title, locations and evidence under
// each finding. Compact (validate without --verbose): the message, what loads
// the file, Dockerfile lines and the fix; the first line says what the image
// runs and the verdict.
#include "cuvet/core/printable.hpp"
#include "renderers.hpp"

namespace cuvet::report::detail {

namespace {

// A hostile image can raise thousands of findings of one check (2000
// libraries each missing the same 2000 others): the text report shows the
// first of each check and counts the rest; machine formats keep every one.
constexpr std::size_t max_shown_per_check = 20;

class TextRenderer : public Renderer {
public:
    void render(const std::vector<Finding>& findings, const ReportContext& context,
                std::ostream& out) const override {
        auto paint = [&](const char* code, std::string_view text) {
            return context.color ? std::string("\033[") + code + "m" + std::string(text) + "\033[0m"
                                 : std::string(text);
        };
        std::string subject = "cuvet";
        if (!context.command.empty()) subject += " " + context.command;
        for (const auto& target : context.targets) subject += " " + printable(target);
        out << paint("1", subject) << ": ";
        if (!context.summary.empty())
            out << printable(context.summary) << "; verdict: " << verdict(findings) << " — ";
        out << summary_line(findings) << "\n";

        const std::vector<Finding>& sorted = findings;  // in report order (sorted_for_report)
        static const char* headings[3] = {"info", "warnings", "errors"};
        static const char* colors[3] = {"36", "33", "31"};
        int current = -1;
        // Findings of one check and severity are adjacent (sorted): past
        // max_shown_per_check of them, one line counts the rest.
        std::size_t shown = 0, hidden = 0;
        auto close_group = [&](const Finding* last) {
            if (hidden > 0 && last != nullptr)
                out << "  " << paint(colors[static_cast<int>(last->severity)], last->id)
                    << "  … and " << hidden << " more " << last->id << " "
                    << (hidden == 1 ? "finding" : "findings")
                    << " (every one is in --format json or sarif)\n";
            shown = hidden = 0;
        };
        for (std::size_t i = 0; i < sorted.size(); ++i) {
            const Finding& finding = sorted[i];
            const Finding* previous = i > 0 ? &sorted[i - 1] : nullptr;
            if (previous && (previous->id != finding.id || previous->severity != finding.severity))
                close_group(previous);
            if (++shown > max_shown_per_check) {
                ++hidden;
                continue;
            }
            int severity = static_cast<int>(finding.severity);
            if (severity != current) {
                current = severity;
                out << "\n" << paint(colors[severity], std::string(headings[severity])) << "\n";
            }
            if (!context.verbose) {
                out << "  " << paint(colors[severity], finding.id) << "  ";
                print_block(out, finding.message.empty() ? finding.title : finding.message,
                            "        ", false);
                if (!finding.loaded_by.empty())
                    out << "        root: " << printable(finding.loaded_by) << "\n";
                for (const auto& location : finding.locations)
                    if (location.line > 0)
                        out << "        at " << printable(location.file) << ":" << location.line
                            << "\n";
                if (!finding.fix.empty()) {
                    out << "        " << paint("32", "fix:") << " ";
                    print_block(out, finding.fix, "             ", false);
                }
                continue;
            }
            out << "  " << paint(colors[severity], finding.id) << "  "
                << paint("1", printable(finding.title)) << "\n";
            if (!finding.message.empty()) print_block(out, finding.message, "        ");
            if (!finding.loaded_by.empty())
                out << "        root: " << printable(finding.loaded_by) << "\n";
            for (const auto& location : finding.locations) {
                out << "        at " << printable(location.file);
                if (location.line > 0) out << ":" << location.line;
                out << "\n";
            }
            if (!finding.evidence.empty()) {
                out << "        " << paint("2", "evidence:") << "\n";
                for (const auto& line : finding.evidence) print_block(out, line, "          ");
            }
            if (!finding.fix.empty()) {
                out << "        " << paint("32", "fix:") << " ";
                print_block(out, finding.fix, "             ", false);
            }
        }
        close_group(sorted.empty() ? nullptr : &sorted.back());
        if (!context.silenced.empty()) {
            out << "\n"
                << paint("2", "silenced by " + printable(context.silenced_by) + ":") << "\n";
            for (const auto& finding : sorted_for_report(context.silenced)) {
                out << "  " << finding.id << "  ";
                print_block(out, finding.message.empty() ? finding.title : finding.message,
                            "        ", false);
            }
        }
        if (!context.rules_version.empty())
            out << paint("2", "rules: " + printable(context.rules_version) + " from " +
                                  printable(context.rules_origin))
                << "\n";
    }

private:
    static std::string verdict(const std::vector<Finding>& findings) {
        for (const auto& f : findings)
            if (f.severity == Severity::error) return "it breaks";
        return "nothing it runs breaks";
    }

    // Multi-line text keeps its lines, each indented; what the image wrote
    // into them (file names, DT_NEEDED strings) cannot drive the terminal.
    static void print_block(std::ostream& out, std::string_view text, std::string_view indent,
                            bool indent_first = true) {
        bool first = true;
        std::size_t pos = 0;
        while (pos <= text.size()) {
            std::size_t end = text.find('\n', pos);
            if (end == std::string_view::npos) end = text.size();
            if (!first || indent_first) out << indent;
            out << printable(text.substr(pos, end - pos)) << "\n";
            first = false;
            pos = end + 1;
        }
    }
};

}  // namespace

std::unique_ptr<Renderer> make_text_renderer() { return std::make_unique<TextRenderer>(); }

}  // namespace cuvet::report::detail
