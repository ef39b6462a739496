#pragma once
// elf::inspect once the file's fatbin containers and holes are known: shared
// by whole files (elf::inspect) and files that streamed by (ElfStream).
#include <optional>
#include <string>
#include <string_view>

#include "cuvet/elf/elf_info.hpp"
#include "elf/fatbin_scanner.hpp"

namespace cuvet::elf::detail {

FatbinScan scan_whole_file(std::string_view bytes);

// `stored`: the whole file, or (cut_out) the file without the scan's holes.
std::optional<ElfInfo> inspect_scanned(std::string_view stored, const FatbinScan& scan, bool cut_out,
                                       std::string* why_not);

}  // namespace cuvet::elf::detail
