#pragma once
// Symbol versioning: what an object needs from each library it links
// (.gnu.version_r, "libc.so.6: GLIBC_2.34") and which versions it defines
// (.gnu.version_d).
#include <string>
#include <vector>

#include "cuvet/elf/elf_info.hpp"
#include "elf/dynamic.hpp"
#include "elf/elf_file.hpp"

namespace cuvet::elf::detail {

// Both chains are linked lists of relative offsets inside the file; a hostile
// file can make them cyclic or absurdly long, so walks stop after these many
// steps (real objects stay far below: glibc defines ~40 versions).
inline constexpr std::size_t max_version_entries = 4096;
inline constexpr std::size_t max_version_aux = 4096;

std::vector<VersionNeed> read_version_needs(const ElfFile& file, const DynamicTable& dynamic);
std::vector<std::string> read_version_definitions(const ElfFile& file, const DynamicTable& dynamic);

}  // namespace cuvet::elf::detail
