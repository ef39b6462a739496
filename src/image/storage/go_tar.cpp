// Each rule below is a line of Go's archive/tar (reader.go, format.go, strconv.go), the
// reader every container runtime extracts with.
#include "image/storage/go_tar.hpp"

#include <cstring>

namespace cuvet::image::go_tar {
namespace {

// Go's parser: the first failure sticks, as p.err does.
struct Parser {
    bool failed = false;

    // Bytes up to the first NUL.
    static std::string string_of(const char* field, std::size_t width) {
        return std::string(field, strnlen(field, width));
    }

    // strconv.ParseInt/ParseUint: an optional sign (ParseInt only), then digits of the
    // base, nothing else, no overflow.
    static bool parse_integer(std::string_view text, unsigned base, bool allow_sign,
                              std::int64_t* out) {
        bool negative = false;
        if (allow_sign && !text.empty() && (text[0] == '+' || text[0] == '-')) {
            negative = text[0] == '-';
            text.remove_prefix(1);
        }
        if (text.empty()) return false;
        std::uint64_t value = 0;
        for (char c : text) {
            unsigned digit = static_cast<unsigned>(c - '0');
            if (c < '0' || digit >= base) return false;
            if (value > (UINT64_MAX - digit) / base) return false;
            value = value * base + digit;
        }
        const std::uint64_t limit =
            allow_sign ? (negative ? (1ull << 63) : (1ull << 63) - 1) : UINT64_MAX;
        if (value > limit) return false;
        *out = negative ? static_cast<std::int64_t>(0 - value) : static_cast<std::int64_t>(value);
        return true;
    }

    // parseOctal: spaces and NULs trimmed at both ends, then up to the first NUL, base 8.
    std::int64_t octal(const char* field, std::size_t width) {
        std::string_view text(field, width);
        auto pad = [](char c) { return c == ' ' || c == '\0'; };
        while (!text.empty() && pad(text.front())) text.remove_prefix(1);
        while (!text.empty() && pad(text.back())) text.remove_suffix(1);
        if (text.empty()) return 0;
        text = text.substr(0, text.find('\0'));
        std::int64_t value = 0;
        if (!parse_integer(text, 8, false, &value)) failed = true;
        return value;
    }

    // parseNumeric: GNU base-256 (two's complement, high bit set) or octal.
    std::int64_t numeric(const char* field, std::size_t width) {
        const auto* bytes = reinterpret_cast<const unsigned char*>(field);
        if (width == 0 || !(bytes[0] & 0x80)) return octal(field, width);
        const unsigned char invert = (bytes[0] & 0x40) ? 0xff : 0;
        std::uint64_t value = 0;
        for (std::size_t i = 0; i < width; ++i) {
            unsigned char c = bytes[i] ^ invert;
            if (i == 0) c &= 0x7f;
            if (value >> 56) {
                failed = true;
                return 0;
            }
            value = value << 8 | c;
        }
        if (value >> 63) {
            failed = true;
            return 0;
        }
        return invert ? ~static_cast<std::int64_t>(value) : static_cast<std::int64_t>(value);
    }
};

bool all_zero(const char* block) {
    for (std::size_t i = 0; i < block_size; ++i)
        if (block[i] != 0) return false;
    return true;
}

bool is_ascii(const std::string& text) {
    for (unsigned char c : text)
        if (c >= 0x80) return false;
    return true;
}

enum class Format { unknown, v7, ustar, star, gnu };

// getFormat: the checksum as an unsigned or a signed byte sum, then the magic.
Format format_of(const char* block) {
    Parser p;
    const std::int64_t stored = p.octal(block + 148, 8);
    std::int64_t unsigned_sum = 0, signed_sum = 0;
    for (std::size_t i = 0; i < block_size; ++i) {
        const bool in_field = i >= 148 && i < 156;
        unsigned_sum += in_field ? ' ' : static_cast<unsigned char>(block[i]);
        signed_sum += in_field ? ' ' : static_cast<signed char>(block[i]);
    }
    if (p.failed || (stored != unsigned_sum && stored != signed_sum)) return Format::unknown;
    const std::string_view magic(block + 257, 6), version(block + 263, 2), trailer(block + 508, 4);
    if (magic == std::string_view("ustar\0", 6))
        return trailer == std::string_view("tar\0", 4) ? Format::star : Format::ustar;
    if (magic == "ustar " && version == std::string_view(" \0", 2)) return Format::gnu;
    return Format::v7;
}

// validPAXRecord: path-like values hold no NUL, no key is empty or holds '=' or a NUL.
bool valid_pax_record(std::string_view key, std::string_view value) {
    if (key.empty() || key.find('=') != std::string_view::npos) return false;
    if (key == "path" || key == "linkpath" || key == "uname" || key == "gname")
        return value.find('\0') == std::string_view::npos;
    return key.find('\0') == std::string_view::npos;
}

// parsePAXTime: seconds, optionally '.' and a fraction of digits.
bool valid_pax_time(std::string_view text) {
    auto dot = text.find('.');
    std::int64_t seconds = 0;
    if (!Parser::parse_integer(text.substr(0, dot), 10, true, &seconds)) return false;
    if (dot == std::string_view::npos) return true;
    for (char c : text.substr(dot + 1))
        if (c < '0' || c > '9') return false;
    return true;
}

}  // namespace

bool header_only(char typeflag) {
    // isHeaderOnlyType: Link, Symlink, Char, Block, Dir, Fifo.
    return std::strchr("123456", typeflag) != nullptr && typeflag != '\0';
}

Block read_block(const char* block) {
    Block result;
    if (all_zero(block)) {
        result.zero = true;
        return result;
    }
    const Format format = format_of(block);
    if (format == Format::unknown) {
        result.error = "a header block whose checksum does not match";
        return result;
    }
    Parser p;
    Header& header = result.header;
    header.typeflag = block[156];
    header.name = Parser::string_of(block, 100);
    header.linkname = Parser::string_of(block + 157, 100);
    header.size = p.numeric(block + 124, 12);
    p.numeric(block + 100, 8);   // mode
    p.numeric(block + 108, 8);   // uid
    p.numeric(block + 116, 8);   // gid
    p.numeric(block + 136, 12);  // mtime
    std::string prefix;
    if (format != Format::v7) {
        p.numeric(block + 329, 8);  // devmajor
        p.numeric(block + 337, 8);  // devminor
    }
    if (format == Format::ustar) {
        prefix = Parser::string_of(block + 345, 155);
    } else if (format == Format::star) {
        prefix = Parser::string_of(block + 345, 131);
        p.numeric(block + 476, 12);  // atime
        p.numeric(block + 488, 12);  // ctime
    } else if (format == Format::gnu) {
        // Go before 1.8 wrote a ustar prefix into GNU headers; Go reads one back when the
        // atime or ctime there does not parse and the bytes are ASCII (golang.org/issue/12594).
        Parser times;
        if (block[345] != 0) times.numeric(block + 345, 12);
        if (block[357] != 0) times.numeric(block + 357, 12);
        if (times.failed) {
            std::string text = Parser::string_of(block + 345, 155);
            if (is_ascii(text)) prefix = text;
        }
    }
    if (!prefix.empty()) header.name = prefix + "/" + header.name;
    if (p.failed)
        result.error =
            "a numeric field that is not a number in the header of '" + header.name + "'";
    return result;
}

std::string PendingHeaders::add_pax(std::string_view payload) {
    // parsePAX / parsePAXRecord: "<length> <key>=<value>\n", length counting the whole record.
    while (!payload.empty()) {
        const auto space = payload.find(' ');
        if (space == std::string_view::npos) return "a pax record without a length";
        std::int64_t length = 0;
        if (!Parser::parse_integer(payload.substr(0, space), 10, true, &length) || length < 5 ||
            length > static_cast<std::int64_t>(payload.size()) ||
            length <= static_cast<std::int64_t>(space + 1))
            return "a pax record whose length is wrong";
        const std::string_view record = payload.substr(space + 1, length - space - 2);
        if (payload[length - 1] != '\n') return "a pax record not ended by a newline";
        const auto equals = record.find('=');
        if (equals == std::string_view::npos) return "a pax record without '='";
        const std::string_view key = record.substr(0, equals), value = record.substr(equals + 1);
        if (!valid_pax_record(key, value))
            return "a pax record with a NUL or an empty key ('" + std::string(key.substr(0, 64)) +
                   "')";
        // GNU's sparse format 0.0 writes offset/numbytes pairs, which must alternate.
        if (key == "GNU.sparse.offset" || key == "GNU.sparse.numbytes") {
            const bool offset_due = sparse_pairs_ % 2 == 0;
            if (offset_due != (key == "GNU.sparse.offset") ||
                value.find(',') != std::string_view::npos)
                return "GNU sparse offsets and sizes out of order";
            ++sparse_pairs_;
        }
        if (key.substr(0, 18) == "SCHILY.xattr.user.") user_xattr_ = true;
        if (key == "GNU.sparse.major") sparse_major_ = value;
        if (key == "GNU.sparse.minor") sparse_minor_ = value;
        if (key == "GNU.sparse.name") sparse_name_ = value;
        if (key == "GNU.sparse.map") has_sparse_map_ = !value.empty();
        std::string_view number = value;
        if ((key == "uid" || key == "gid") && !value.empty()) {
            std::int64_t ignored = 0;
            if (!Parser::parse_integer(number, 10, true, &ignored))
                return "a pax " + std::string(key) + " that is not a number";
        }
        if ((key == "mtime" || key == "atime" || key == "ctime") && !value.empty() &&
            !valid_pax_time(value))
            return "a pax " + std::string(key) + " that is not a time";
        // A map: the last record of a key wins; an empty value keeps the header's field.
        if (key == "path") pax_path_ = value, has_pax_path_ = !value.empty();
        if (key == "linkpath") pax_link_ = value, has_pax_link_ = !value.empty();
        if (key == "size") pax_size_ = value, has_pax_size_ = !value.empty();
        payload.remove_prefix(static_cast<std::size_t>(length));
    }
    return {};
}

std::string PendingHeaders::add(char type, std::string_view payload) {
    // A GNU long name or link is read up to its first NUL, as parseString does.
    const std::string_view text = payload.substr(0, payload.find('\0'));
    switch (type) {
        case 'x':
            return add_pax(payload);
        case 'g':
            return PendingHeaders{}.add_pax(payload);
        case 'L':
            long_name_ = text;
            return {};
        default:
            long_link_ = text;
            return {};
    }
}

std::string PendingHeaders::apply_to(Header& header) {
    std::string error;
    if (has_pax_path_) header.name = pax_path_;
    if (has_pax_link_) header.linkname = pax_link_;
    if (has_pax_size_ && !Parser::parse_integer(pax_size_, 10, true, &header.size))
        error = "a pax size that is not a number";
    if (!long_name_.empty()) header.name = long_name_;
    if (!long_link_.empty()) header.linkname = long_link_;
    // readGNUSparsePAXHeaders: a sparse file of a known version takes GNU.sparse.name, after
    // the long names.
    const bool sparse =
        (sparse_major_ == "0" && (sparse_minor_ == "0" || sparse_minor_ == "1")) ||
        (sparse_major_ == "1" && sparse_minor_ == "0") ||
        (sparse_major_.empty() && sparse_minor_.empty() && (has_sparse_map_ || sparse_pairs_ > 0));
    if (sparse && !sparse_name_.empty()) header.name = sparse_name_;
    if (header.typeflag == '\0')
        header.typeflag = !header.name.empty() && header.name.back() == '/' ? '5' : '0';
    if (error.empty() && header.size < 0 && !header_only(header.typeflag))
        error = "a negative size";
    // Linux allows no user.* attribute on a symlink: podman's extraction fails the layer
    // (lsetxattr: operation not permitted), as docker's does outside a user namespace.
    // Found by tests/parity.
    if (error.empty() && user_xattr_ && header.typeflag == '2')
        error = "a user.* extended attribute on the symbolic link '" + header.name.substr(0, 200) +
                "' (podman: \"lsetxattr: operation not permitted\")";
    *this = PendingHeaders{};
    return error;
}

}  // namespace cuvet::image::go_tar
