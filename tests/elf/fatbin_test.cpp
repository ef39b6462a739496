// parse_fatbin over hand-built containers (the layout documented in
// src/elf/fatbin.cpp); real nvcc output is covered in inspect_test.cpp.
#include "cuvet/elf/fatbin.hpp"

#include <catch2/catch.hpp>

#include "support/fatbin_builder.hpp"

using namespace cuvet::elf;
using cuvet::test::fatbin_container;

namespace {

std::string entry(std::uint16_t kind, std::uint32_t arch, std::uint32_t header_size = 64,
                  std::size_t payload = 24) {
    return cuvet::test::fatbin_entry(kind, arch, header_size, payload);
}

void put(std::string& out, std::uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

}  // namespace

TEST_CASE("parse_fatbin lists SASS and PTX of every container", "[elf][fatbin]") {
    const std::string section =
        fatbin_container({entry(2, 80), entry(2, 90, 112, 40), entry(1, 90, 80)}) +
        fatbin_container({entry(2, 75), entry(1, 120, 96, 8), entry(8, 99)});
    const auto summary = parse_fatbin(section, true);
    CHECK(summary.containers == 2);
    CHECK(summary.entries == 6);
    CHECK_FALSE(summary.truncated);
    CHECK(summary.sass_archs == std::vector<int>{75, 80, 90});
    CHECK(summary.ptx_archs == std::vector<int>{90, 120});
    REQUIRE(summary.detail.size() == 6);
    CHECK(summary.detail[0].offset == 16);
    CHECK(summary.detail[1].offset == 16 + 64 + 24);
}

TEST_CASE("parse_fatbin skips padding between containers", "[elf][fatbin]") {
    const std::string section = std::string(8, '\0') + fatbin_container({entry(2, 80)}) +
                                std::string(16, '\0') + fatbin_container({entry(1, 86)});
    const auto summary = parse_fatbin(section);
    CHECK(summary.containers == 2);
    CHECK(summary.sass_archs == std::vector<int>{80});
    CHECK(summary.ptx_archs == std::vector<int>{86});
}

TEST_CASE("parse_fatbin stops at truncated or nonsensical entries", "[elf][fatbin]") {
    const std::string whole = fatbin_container({entry(2, 80), entry(1, 90)});
    for (std::size_t size = 0; size < whole.size(); ++size) {
        const auto summary = parse_fatbin(std::string_view(whole).substr(0, size));
        if (size >= 16) CHECK(summary.truncated);
        CHECK(summary.entries <= 2);
    }
    // A zero header size would never advance: it ends the container instead.
    std::string zero_header = fatbin_container({entry(2, 80), entry(2, 90)});
    zero_header.replace(16 + 88 + 4, 4, std::string(4, '\0'));  // second entry's header_size
    const auto zero = parse_fatbin(zero_header);
    CHECK(zero.entries == 1);
    CHECK(zero.truncated);
    // A payload size past the container end.
    std::string huge = fatbin_container({entry(2, 80)});
    huge.replace(16 + 8, 8, std::string(8, '\xff'));
    CHECK(parse_fatbin(huge).entries == 0);
    CHECK(parse_fatbin("").containers == 0);
}

TEST_CASE("find_embedded_fatbins keeps only aligned, well-formed containers", "[elf][fatbin]") {
    std::string data(40, 'x');                                   // unrelated data before
    data += fatbin_container({entry(2, 86), entry(1, 86, 80)});  // at 40: 8-byte aligned
    data += std::string(3, '\0');
    // A stray magic number at an aligned offset with a bogus header.
    std::string stray;
    put(stray, 0xBA55ED50, 4);
    put(stray, 7, 2);
    put(stray, 16, 2);
    put(stray, 1u << 30, 8);
    data += std::string((8 - data.size() % 8) % 8, '\0') + stray;
    // A real container at an unaligned offset is not a fatbin the linker wrote.
    data += std::string(5, '\0') + fatbin_container({entry(2, 100)});
    const auto summary = find_embedded_fatbins(data, 0);
    CHECK(summary.containers == 1);
    CHECK(summary.sass_archs == std::vector<int>{86});
    CHECK(summary.ptx_archs == std::vector<int>{86});
    // Alignment is that of the file: the same bytes at file offset 4 are unaligned.
    CHECK(find_embedded_fatbins(data, 4).containers == 0);
}
