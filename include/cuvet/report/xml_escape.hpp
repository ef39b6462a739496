#pragma once
// Text chosen by an image's author, made safe inside XML and HTML: bytes that are not UTF-8 and
// control characters become the escapes the text report shows ("\x1b"), newline and tab kept,
// then the five markup characters become entities. Every XML and HTML writer uses this one.
#include <string>
#include <string_view>

namespace cuvet::report {

std::string xml_escape(std::string_view text);

}  // namespace cuvet::report
