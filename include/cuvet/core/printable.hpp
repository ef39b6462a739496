#pragma once
// Text from an image (file names, DT_NEEDED strings, config fields) is chosen
// by whoever built it. Before it reaches a terminal, every byte that could
// drive the terminal or hide what it says is made visible: C0 controls (ESC,
// CR, BS…), DEL, C1 controls, Unicode bidi overrides and bytes that are not
// UTF-8 become escapes ("\x1b", "\r", "\u202e", "\xff"). Machine formats
// (JSON, SARIF) escape on their own and do not use this.
#include <string>
#include <string_view>

namespace cuvet {

// Every control character escaped, newline and tab included: one line stays one line.
std::string printable(std::string_view text);
// The same, but '\n' and '\t' kept: for output that is already laid out in lines.
std::string printable_lines(std::string_view text);

}  // namespace cuvet
