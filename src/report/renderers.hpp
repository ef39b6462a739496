#pragma once
// Private to src/report: one factory per format file, plus shared helpers.
#include <memory>
#include <string>
#include <string_view>

#include "cuvet/report/renderer.hpp"
#include "cuvet/report/xml_escape.hpp"

namespace cuvet::report::detail {

std::unique_ptr<Renderer> make_text_renderer();
std::unique_ptr<Renderer> make_json_renderer();
std::unique_ptr<Renderer> make_sarif_renderer();
std::unique_ptr<Renderer> make_junit_renderer();
std::unique_ptr<Renderer> make_checkstyle_renderer();
std::unique_ptr<Renderer> make_gnu_renderer();
std::unique_ptr<Renderer> make_codeclimate_renderer();

using report::xml_escape;
// "3 findings (2 errors, 1 warning)" / "no findings"
std::string summary_line(const std::vector<Finding>& findings);
// The location a finding is reported at: its first one, else the first target.
Location primary_location(const Finding& finding, const ReportContext& context);
// The image a report is about, as code-scanning UIs should file it: the
// reference without transport, tag or digest ("registry.example.com/app"), a file's path as given.
std::string artifact_name(std::string_view target);
// 16 hex digits that stay the same for the same problem in the next build of the image.
std::string finding_fingerprint(const Finding& finding, const ReportContext& context);

}  // namespace cuvet::report::detail
