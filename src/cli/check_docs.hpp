#pragma once
// docs/checks/ID.md, written from each check's CheckInfo (as `cuvet explain`
// prints it), and the report rules that link to those pages.
#include <string>
#include <vector>

#include "cuvet/checks/registry.hpp"
#include "cuvet/report/renderer.hpp"

namespace cuvet::cli {

// The page of one check, Markdown.
std::string check_markdown(const checks::CheckEntry& entry);
// docs/checks/README.md: every check with its title, linking its page.
std::string checks_index_markdown();
// The URL of the directory of check pages: $CUVET_DOCS_URL, else the build's
// (CMake CUVET_DOCS_URL: by default docs/checks of the repository at the commit
// built); empty when neither is known. A value that is not http(s) is Error(usage).
std::string docs_url();
// docs_url()/ID.md, or empty.
std::string check_doc_url(const std::string& id);
// Where cuvet lives (SARIF informationUri), or empty.
std::string repository_url();
// checks::report_rules with each rule's page (help_markdown, help_uri).
std::vector<report::RuleInfo> documented_rules(checks::CheckKind kind);

}  // namespace cuvet::cli
