#include "cuvet/core/printable.hpp"

#include <cstdio>

namespace cuvet {
namespace {

void append_hex(std::string& out, unsigned char byte) {
    char escape[5];
    std::snprintf(escape, sizeof escape, "\\x%02x", byte);
    out += escape;
}

void append_codepoint(std::string& out, unsigned codepoint) {
    char escape[16];  // "\\u" and up to 8 hex digits, the bound GCC checks against
    std::snprintf(escape, sizeof escape, "\\u%04x", codepoint);
    out += escape;
}

// Length of the well-formed UTF-8 sequence at `text[i]` and its code point;
// 0 when the bytes there are not UTF-8 (overlong, surrogate, truncated).
std::size_t utf8_sequence(std::string_view text, std::size_t i, unsigned* codepoint) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    std::size_t length = 0;
    unsigned value = 0, minimum = 0;
    if (lead >= 0xc2 && lead <= 0xdf)
        length = 2, value = lead & 0x1f, minimum = 0x80;
    else if (lead >= 0xe0 && lead <= 0xef)
        length = 3, value = lead & 0x0f, minimum = 0x800;
    else if (lead >= 0xf0 && lead <= 0xf4)
        length = 4, value = lead & 0x07, minimum = 0x10000;
    else
        return 0;
    if (i + length > text.size()) return 0;
    for (std::size_t k = 1; k < length; ++k) {
        if ((byte(i + k) & 0xc0) != 0x80) return 0;
        value = (value << 6) | (byte(i + k) & 0x3f);
    }
    if (value < minimum || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) return 0;
    *codepoint = value;
    return length;
}

// C1 controls, and the bidi controls that reorder what a line shows
// ("Trojan Source": U+202A..U+202E, U+2066..U+2069, and the marks U+200E/F, U+061C).
bool hidden_codepoint(unsigned c) {
    return (c >= 0x80 && c <= 0x9f) || (c >= 0x202a && c <= 0x202e) ||
           (c >= 0x2066 && c <= 0x2069) || c == 0x200e || c == 0x200f || c == 0x061c;
}

std::string escape(std::string_view text, bool keep_lines) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        if (c >= 0x20 && c < 0x7f) {
            out += static_cast<char>(c);
            ++i;
            continue;
        }
        if (c < 0x80) {
            if (keep_lines && (c == '\n' || c == '\t'))
                out += static_cast<char>(c);
            else if (c == '\n')
                out += "\\n";
            else if (c == '\t')
                out += "\\t";
            else if (c == '\r')
                out += "\\r";
            else
                append_hex(out, c);
            ++i;
            continue;
        }
        unsigned codepoint = 0;
        const std::size_t length = utf8_sequence(text, i, &codepoint);
        if (length == 0) {
            append_hex(out, c);
            ++i;
        } else if (hidden_codepoint(codepoint)) {
            append_codepoint(out, codepoint);
            i += length;
        } else {
            out.append(text.substr(i, length));
            i += length;
        }
    }
    return out;
}

}  // namespace

std::string printable(std::string_view text) { return escape(text, false); }
std::string printable_lines(std::string_view text) { return escape(text, true); }

}  // namespace cuvet
