#pragma once
// The dynamic section: which libraries an object needs, its own name, its
// search paths, and where the loader finds its string, symbol and version
// tables.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "elf/elf_file.hpp"

namespace cuvet::elf::detail {

struct DynamicTable {
    bool present = false;
    std::optional<Range> strtab;  // the dynamic string table, bounds-checked
    std::vector<std::string_view> needed;
    std::optional<std::string_view> soname, rpath, runpath;
    // Raw addresses and counts, for the readers of the other tables.
    std::optional<std::uint64_t> symtab, hash, gnu_hash, verneed, verdef;
    std::uint64_t syment = 0, verneednum = 0, verdefnum = 0;
};

// Reads .dynamic (section headers when present, PT_DYNAMIC otherwise). An
// object without a dynamic table (a static executable, a .o) yields
// present == false; nullopt only when the table itself lies outside the file.
std::optional<DynamicTable> read_dynamic(const ElfFile& file, std::string* why_not);

// The string table that `link` (a section's sh_link) names, when it is valid;
// otherwise the dynamic string table.
std::optional<Range> linked_strtab(const ElfFile& file, const Section* section,
                                   const DynamicTable& dynamic);

// Splits a DT_RPATH/DT_RUNPATH value on ':' ("" entries are kept: ld.so reads
// them as the current directory).
std::vector<std::string> split_search_path(std::string_view value);

}  // namespace cuvet::elf::detail
