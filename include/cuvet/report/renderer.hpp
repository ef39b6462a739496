#pragma once
// One interface, one file per format (docs/architecture.md; bloaty's model): text, json,
// sarif, junit, checkstyle, gnu, codeclimate. Renderers see findings and rule metadata only.
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "cuvet/report/finding.hpp"

namespace cuvet::report {

// A check as reports describe it (SARIF rules, JUnit test cases). The CLI fills
// these from the checks registry; report knows nothing of checks.
struct RuleInfo {
    std::string id;
    std::string name;  // "unresolved-soname"
    std::string title;
    Severity severity = Severity::warning;
    std::string rationale;
    std::string fix;
    std::string
        help_uri;  // the check's page (docs/checks/ID.md at the build's commit); may be empty
    std::string help_markdown;  // the same page, for viewers that show rule help inline
};

struct ReportContext {
    std::string tool_version;          // CUVET_VERSION
    std::string command;               // "validate", "lint"
    std::vector<std::string> targets;  // the images or Dockerfiles examined
    std::vector<RuleInfo> rules;       // every check that ran
    // The rules database judged with: "bundle 1764312000 (2026-11-28T06:40:00Z)" or
    // "built-in 2026.11.23-3", and where it came from; empty when not known.
    std::string rules_version;
    std::string rules_origin;
    bool color = false;  // text only: ANSI colours
    // text only: titles, every location and the evidence (search traces,
    // provenance). validate turns it off unless --verbose: one line per finding.
    bool verbose = true;
    // validate: what the image runs, one line ("runs pytorch 2.1.0 (CUDA 12.1, cuDNN 8.9.2)").
    std::string summary;
    // Where cuvet is documented (SARIF informationUri); empty when the build does not know.
    std::string information_uri;
    // Findings a settings file's `ignore` silenced, and that file. A checkout's
    // .cuvet.yaml is the pull request's to edit, so what it hides is never
    // dropped unseen: listed apart (text, JSON), a suppressed result (SARIF), a
    // skipped test case (JUnit), each naming the file.
    std::vector<Finding> silenced;
    std::string silenced_by;
};

class Renderer {
public:
    virtual ~Renderer() = default;
    virtual void render(const std::vector<Finding>& findings, const ReportContext& context,
                        std::ostream& out) const = 0;
};

// "text", "json", "sarif", "junit", "checkstyle", "gnu", "codeclimate"; anything else throws
// cuvet::Error(usage) listing the formats.
std::unique_ptr<Renderer> make_renderer(std::string_view format);
const std::vector<std::string>& renderer_formats();

// Colour when writing to a terminal and NO_COLOR is unset or empty (no-color.org).
bool want_color(bool is_tty, const char* no_color_env);
bool stdout_wants_color();

// Findings ordered for reading: severity (error first), then id, then location.
std::vector<Finding> sorted_for_report(std::vector<Finding> findings);

}  // namespace cuvet::report
