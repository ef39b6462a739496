#pragma once
// Text primitives that behave like the Go standard library functions the
// BuildKit parser is written with (unicode.IsSpace, strings.TrimSpace,
// utf8.DecodeRune, strconv.Quote). Byte-exact agreement with the upstream
// conformance dumps depends on these details, not on "close enough".
#include <cstdint>
#include <string>
#include <string_view>

namespace cuvet::dockerfile::go {

struct Rune {
    char32_t value = 0;  // U+FFFD for an invalid byte, like utf8.DecodeRuneInString
    int width = 1;
};

Rune decode_rune(std::string_view text, std::size_t pos);
void append_rune(std::string& out, char32_t rune);
bool is_space(char32_t rune);  // unicode.IsSpace
// unicode.IsSpace applied to one byte widened to a rune, as BuildKit's
// byte-wise loops do (so 0x85 and 0xA0 count as space there).
inline bool is_space_byte(unsigned char byte) { return is_space(byte); }
std::string_view trim_space(std::string_view text);       // strings.TrimSpace
std::string_view trim_left_space(std::string_view text);  // TrimLeftFunc(IsSpace)
// The class [\t\v\f\r ] that BuildKit's reWhitespace regexp uses.
inline bool is_blank(char c) {
    return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r';
}
std::string quote(std::string_view text);  // strconv.Quote

}  // namespace cuvet::dockerfile::go
