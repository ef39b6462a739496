// Malformed input never crashes elf::inspect: truncated copies, corrupt bytes,
// big-endian files, absurd counts. Each case checks what the reader reports.
#include <elf.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstring>
#include <random>

#include "cuvet/elf/elf_info.hpp"
#include "support/elf_fixtures.hpp"

using namespace cuvet;

namespace {

std::string fixture_bytes() {
    const auto& fx = test::elf_fixtures();
    REQUIRE(fx.error.empty());
    return test::read_file(fx.user);
}

// The host's <elf.h> view of the fixture, independent of the reader under test.
const Elf64_Ehdr& ehdr(const std::string& bytes) {
    return *reinterpret_cast<const Elf64_Ehdr*>(bytes.data());
}

Elf64_Shdr* section_of_type(std::string& bytes, std::uint32_t type) {
    const auto& eh = ehdr(bytes);
    for (unsigned i = 0; i < eh.e_shnum; ++i) {
        auto* sh = reinterpret_cast<Elf64_Shdr*>(bytes.data() + eh.e_shoff + i * eh.e_shentsize);
        if (sh->sh_type == type) return sh;
    }
    return nullptr;
}

}  // namespace

TEST_CASE("inspect rejects what is not a readable ELF", "[elf][malformed]") {
    std::string why;
    CHECK_FALSE(elf::inspect("", &why));
    CHECK(why.find("not an ELF") != std::string::npos);
    CHECK_FALSE(elf::inspect("#!/bin/sh\necho hi\n", &why));
    CHECK_FALSE(elf::inspect(std::string_view("\x7f"
                                              "ELF\x02\x01\x01",
                                              7),
                             &why));
    CHECK(why.find("truncated") != std::string::npos);

    std::string bytes = fixture_bytes();
    bytes[EI_DATA] = ELFDATA2MSB;
    CHECK_FALSE(elf::inspect(bytes, &why));
    CHECK(why == "big-endian ELF is not supported");
    bytes[EI_DATA] = ELFDATA2LSB;
    bytes[EI_CLASS] = 7;
    CHECK_FALSE(elf::inspect(bytes, &why));
    CHECK(why == "unknown ELF class");
}

TEST_CASE("inspect survives every truncation of a real library", "[elf][malformed]") {
    const std::string bytes = fixture_bytes();
    if (sizeof(void*) != 8) return;
    const auto section_table_end = ehdr(bytes).e_shoff;
    for (std::size_t size = 0; size < bytes.size(); ++size) {
        std::string why;
        auto info = elf::inspect(std::string_view(bytes.data(), size), &why);
        // The section headers sit at the end: any cut before them is reported.
        if (size < section_table_end) {
            INFO("size " << size);
            REQUIRE_FALSE(info);
            REQUIRE_FALSE(why.empty());
        }
    }
}

TEST_CASE("inspect survives corrupt bytes", "[elf][malformed]") {
    const std::string original = fixture_bytes();
    std::mt19937 random(1234);
    std::uniform_int_distribution<std::size_t> where(0, original.size() - 1);
    std::uniform_int_distribution<int> value(0, 255);
    std::size_t parsed = 0;
    for (int round = 0; round < 3000; ++round) {
        std::string bytes = original;
        // Corrupt the parts the reader walks more often: headers and tables.
        const std::size_t limit =
            round % 2 ? bytes.size() : std::min<std::size_t>(4096, bytes.size());
        for (int k = 0; k < 1 + round % 8; ++k)
            bytes[where(random) % limit] = static_cast<char>(value(random));
        if (elf::inspect(bytes)) ++parsed;
    }
    CHECK(parsed > 0);  // most corruptions leave a readable file
}

TEST_CASE("inspect bounds absurd version counts", "[elf][malformed]") {
    std::string bytes = fixture_bytes();
    if (sizeof(void*) != 8) return;
    Elf64_Shdr* verneed = section_of_type(bytes, SHT_GNU_verneed);
    REQUIRE(verneed);
    verneed->sh_info = 0xffffffff;
    // The first need claims 65535 auxiliary entries.
    auto* need = reinterpret_cast<Elf64_Verneed*>(bytes.data() + verneed->sh_offset);
    need->vn_cnt = 0xffff;
    const auto start = std::chrono::steady_clock::now();
    auto info = elf::inspect(bytes);
    const auto elapsed = std::chrono::steady_clock::now() - start;
    REQUIRE(info);
    CHECK(info->version_needs.size() <= 4096);
    CHECK(std::chrono::duration_cast<std::chrono::seconds>(elapsed).count() < 2);
}

TEST_CASE("inspect reports tables that lie outside the file", "[elf][malformed]") {
    std::string bytes = fixture_bytes();
    if (sizeof(void*) != 8) return;
    std::string why;
    auto* eh = reinterpret_cast<Elf64_Ehdr*>(bytes.data());
    const auto shnum = eh->e_shnum;
    eh->e_shnum = 0xfff0;
    CHECK_FALSE(elf::inspect(bytes, &why));
    CHECK(why.find("section header table") != std::string::npos);
    eh->e_shnum = shnum;

    // ld.so reads the dynamic table through PT_DYNAMIC, never the section headers: a .dynamic
    // section elsewhere changes nothing, a PT_DYNAMIC past the end is a broken library.
    Elf64_Shdr* dynamic = section_of_type(bytes, SHT_DYNAMIC);
    REQUIRE(dynamic);
    const auto section_offset = dynamic->sh_offset;
    dynamic->sh_offset = bytes.size() - 8;
    CHECK(elf::inspect(bytes, &why));
    dynamic->sh_offset = section_offset;
    bool moved = false;
    for (unsigned i = 0; i < eh->e_phnum; ++i) {
        auto* ph =
            reinterpret_cast<Elf64_Phdr*>(bytes.data() + eh->e_phoff + i * sizeof(Elf64_Phdr));
        if (ph->p_type != PT_DYNAMIC) continue;
        ph->p_offset = bytes.size() - 8;
        moved = true;
    }
    REQUIRE(moved);
    CHECK_FALSE(elf::inspect(bytes, &why));
    CHECK(why.find("dynamic segment") != std::string::npos);
}

TEST_CASE("without section headers the facts come from PT_DYNAMIC", "[elf]") {
    std::string bytes = fixture_bytes();
    if (sizeof(void*) != 8) return;
    const auto with_sections = elf::inspect(bytes);
    REQUIRE(with_sections);
    auto* eh = reinterpret_cast<Elf64_Ehdr*>(bytes.data());
    eh->e_shoff = 0;
    eh->e_shnum = 0;
    eh->e_shstrndx = 0;
    const auto without = elf::inspect(bytes);
    REQUIRE(without);
    CHECK(without->soname == with_sections->soname);
    CHECK(without->needed == with_sections->needed);
    CHECK(without->rpath == with_sections->rpath);
    CHECK(without->version_definitions == with_sections->version_definitions);
    REQUIRE(without->version_needs.size() == with_sections->version_needs.size());
    for (std::size_t i = 0; i < without->version_needs.size(); ++i) {
        CHECK(without->version_needs[i].file == with_sections->version_needs[i].file);
        CHECK(without->version_needs[i].versions == with_sections->version_needs[i].versions);
    }
    // The symbol count now comes from DT_GNU_HASH.
    CHECK(without->imported_symbols == with_sections->imported_symbols);
    CHECK(without->exported_symbols == with_sections->exported_symbols);
    // With no sections, the whole file is searched for library names.
    CHECK(without->dlopen_candidates == with_sections->dlopen_candidates);
}

TEST_CASE("two PT_DYNAMIC: the last one is the table, as ld.so reads it", "[elf][ld_rules]") {
    std::string bytes = fixture_bytes();
    if (sizeof(void*) != 8) return;
    const auto original = elf::inspect(bytes);
    REQUIRE(original);
    REQUIRE_FALSE(original->needed.empty());
    // A second PT_DYNAMIC after the real one (gcc puts PT_GNU_STACK there), naming an empty
    // table (DT_NULL at once) appended to the file. dl-load.c overwrites l_ld with each
    // PT_DYNAMIC, so ld.so sees no DT_NEEDED at all; the .dynamic section does not count.
    const auto* eh = reinterpret_cast<const Elf64_Ehdr*>(bytes.data());
    const auto phoff = eh->e_phoff;
    const auto phnum = eh->e_phnum;
    const auto table_at = bytes.size();
    bytes.append(2 * sizeof(Elf64_Dyn), '\0');
    bool seen_dynamic = false, replaced = false;
    for (std::size_t i = 0; i < phnum && !replaced; ++i) {
        auto* ph = reinterpret_cast<Elf64_Phdr*>(bytes.data() + phoff + i * sizeof(Elf64_Phdr));
        if (ph->p_type == PT_DYNAMIC) seen_dynamic = true;
        if (seen_dynamic && ph->p_type == PT_GNU_STACK) {
            ph->p_type = PT_DYNAMIC;
            ph->p_offset = table_at;
            ph->p_filesz = ph->p_memsz = 2 * sizeof(Elf64_Dyn);
            replaced = true;
        }
    }
    REQUIRE(replaced);
    const auto last_wins = elf::inspect(bytes);
    REQUIRE(last_wins);
    CHECK(last_wins->needed.empty());
    CHECK(last_wins->soname.empty());
}
