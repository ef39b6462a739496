#pragma once
// A check's documentation page, docs/checks/<ID>.md, compiled into the binary: the one
// place its title, rationale, examples and fix are written (cmake/EmbedFiles.cmake).
#include <string>
#include <string_view>

#include "cuvet/checks/check_info.hpp"

namespace cuvet::checks {

// The documentation fields of one check, read from its page's fixed sections (the title
// line, "## Why", "## Fails", "## Passes", "## Fix"). Throws core::Error (internal) naming
// the page when it is missing from the build or does not have that shape.
void read_check_page(CheckInfo& info);
// The same, from a page's text (tests give a malformed one).
void read_check_page(CheckInfo& info, std::string_view page);

// The page as compiled in; throws as above when there is none.
std::string_view check_page(std::string_view id);

}  // namespace cuvet::checks
