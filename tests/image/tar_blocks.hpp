#pragma once
// Pieces of hand-made tar archives, for the tests that write headers no tar tool would write.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace cuvet::test {

// `value` as width-1 octal digits and a NUL at `at` of a header block, as ustar writes numbers.
inline void put_octal(std::string& block, std::size_t at, std::size_t width, std::uint64_t value) {
    std::snprintf(&block[at], width, "%0*llo", static_cast<int>(width - 1),
                  static_cast<unsigned long long>(value));
}

// `data` padded with NULs to a whole number of 512-byte blocks, as a member's data is stored.
inline std::string padded(std::string data) {
    data.resize((data.size() + 511) / 512 * 512, '\0');
    return data;
}

constexpr std::string_view ustar_magic{
    "ustar\0"
    "00",
    8};
constexpr std::string_view gnu_magic{"ustar  \0", 8};

// A header block with name, mode, owner 0, size, a fixed mtime, type, link and magic; the
// caller adds what its dialect needs, then seal_header() writes the checksum.
inline std::string unsealed_header(const std::string& name, const std::string& link,
                                   std::uint64_t size, char type, std::uint32_t mode,
                                   std::string_view magic) {
    std::string block(512, '\0');
    block.replace(0, std::min<std::size_t>(name.size(), 100), name.substr(0, 100));
    put_octal(block, 100, 8, mode & 07777);
    put_octal(block, 108, 8, 0);
    put_octal(block, 116, 8, 0);
    put_octal(block, 124, 12, size);
    put_octal(block, 136, 12, 1700000000);
    block[156] = type;
    block.replace(157, std::min<std::size_t>(link.size(), 100), link.substr(0, 100));
    block.replace(257, 8, magic);
    return block;
}

// The header checksum: six octal digits, NUL, space, summed with the field as spaces.
inline void seal_header(std::string& block) {
    block.replace(148, 8, "        ");
    unsigned sum = 0;
    for (unsigned char c : block) sum += c;
    char text[8];
    std::snprintf(text, sizeof text, "%06o", sum);
    block.replace(148, 7, text, 7);  // six digits, NUL, then the space already there
}

// One pax record, "LEN key=value\n", LEN counting its own digits.
inline std::string pax_record(const std::string& key, const std::string& value) {
    std::string record = " " + key + "=" + value + "\n";
    std::size_t length = record.size() + 1;
    while (std::to_string(length).size() + record.size() != length) ++length;
    return std::to_string(length) + record;
}

}  // namespace cuvet::test
