#include "dockerfile/go_text.hpp"

namespace cuvet::dockerfile::go {

Rune decode_rune(std::string_view text, std::size_t pos) {
    auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
    const unsigned char b0 = byte(pos);
    if (b0 < 0x80) return {b0, 1};
    const Rune invalid{0xFFFD, 1};
    int need = 0;
    char32_t value = 0;
    char32_t min = 0;
    if (b0 >= 0xC2 && b0 <= 0xDF)
        need = 1, value = b0 & 0x1F, min = 0x80;
    else if (b0 >= 0xE0 && b0 <= 0xEF)
        need = 2, value = b0 & 0x0F, min = 0x800;
    else if (b0 >= 0xF0 && b0 <= 0xF4)
        need = 3, value = b0 & 0x07, min = 0x10000;
    else
        return invalid;
    if (pos + need >= text.size()) return invalid;
    for (int i = 1; i <= need; ++i) {
        const unsigned char b = byte(pos + i);
        if ((b & 0xC0) != 0x80) return invalid;
        value = (value << 6) | (b & 0x3F);
    }
    if (value < min || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) return invalid;
    return {value, need + 1};
}

void append_rune(std::string& out, char32_t r) {
    if (r > 0x10FFFF || (r >= 0xD800 && r <= 0xDFFF)) r = 0xFFFD;
    if (r < 0x80) {
        out += static_cast<char>(r);
    } else if (r < 0x800) {
        out += static_cast<char>(0xC0 | (r >> 6));
        out += static_cast<char>(0x80 | (r & 0x3F));
    } else if (r < 0x10000) {
        out += static_cast<char>(0xE0 | (r >> 12));
        out += static_cast<char>(0x80 | ((r >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (r & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (r >> 18));
        out += static_cast<char>(0x80 | ((r >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((r >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (r & 0x3F));
    }
}

bool is_space(char32_t r) {
    switch (r) {
        case '\t':
        case '\n':
        case '\v':
        case '\f':
        case '\r':
        case ' ':
        case 0x85:
        case 0xA0:
        case 0x1680:
        case 0x2028:
        case 0x2029:
        case 0x202F:
        case 0x205F:
        case 0x3000:
            return true;
        default:
            return r >= 0x2000 && r <= 0x200A;
    }
}

std::string_view trim_left_space(std::string_view text) {
    std::size_t pos = 0;
    while (pos < text.size()) {
        Rune r = decode_rune(text, pos);
        if (!is_space(r.value)) break;
        pos += r.width;
    }
    return text.substr(pos);
}

std::string_view trim_space(std::string_view text) {
    text = trim_left_space(text);
    // Walk forward remembering where the last non-space rune ended: decoding
    // UTF-8 backwards is not worth the code for Dockerfile-sized lines.
    std::size_t end = 0, pos = 0;
    while (pos < text.size()) {
        Rune r = decode_rune(text, pos);
        pos += r.width;
        if (!is_space(r.value)) end = pos;
    }
    return text.substr(0, end);
}

namespace {

// unicode.IsPrint for the runes Dockerfiles contain; the ranges below are the
// non-printable (separator, control, format, private-use) blocks that occur.
bool is_print(char32_t r) {
    if (r < 0x80) return r >= 0x20 && r < 0x7F;
    if (r <= 0xA0 || r == 0xAD) return false;
    if (r == 0x1680 || (r >= 0x2000 && r <= 0x200F) || (r >= 0x2028 && r <= 0x202F)) return false;
    if ((r >= 0x205F && r <= 0x206F) || r == 0x3000 || r == 0xFEFF) return false;
    if (r >= 0xE000 && r <= 0xF8FF) return false;
    if (r >= 0xFFF9 && r <= 0xFFFB) return false;
    if (r >= 0xF0000) return false;
    return true;
}

void append_hex(std::string& out, unsigned value, int digits) {
    static const char* hex = "0123456789abcdef";
    for (int i = digits - 1; i >= 0; --i) out += hex[(value >> (i * 4)) & 0xF];
}

}  // namespace

std::string quote(std::string_view text) {
    std::string out;
    out.reserve(text.size() + 2);
    out += '"';
    std::size_t pos = 0;
    while (pos < text.size()) {
        Rune r = decode_rune(text, pos);
        if (r.width == 1 && r.value == 0xFFFD) {
            out += "\\x";
            append_hex(out, static_cast<unsigned char>(text[pos]), 2);
            pos += 1;
            continue;
        }
        pos += r.width;
        const char32_t c = r.value;
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (is_print(c)) {
            append_rune(out, c);
        } else {
            switch (c) {
                case '\a':
                    out += "\\a";
                    break;
                case '\b':
                    out += "\\b";
                    break;
                case '\f':
                    out += "\\f";
                    break;
                case '\n':
                    out += "\\n";
                    break;
                case '\r':
                    out += "\\r";
                    break;
                case '\t':
                    out += "\\t";
                    break;
                case '\v':
                    out += "\\v";
                    break;
                default:
                    if (c < ' ' || c == 0x7F) {
                        out += "\\x";
                        append_hex(out, c, 2);
                    } else if (c < 0x10000) {
                        out += "\\u";
                        append_hex(out, c, 4);
                    } else {
                        out += "\\U";
                        append_hex(out, c, 8);
                    }
            }
        }
    }
    out += '"';
    return out;
}

}  // namespace cuvet::dockerfile::go
