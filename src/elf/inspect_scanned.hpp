#pragma once
// elf::inspect once the file's fatbin containers and holes are known: shared
// by whole files (elf::inspect) and files that streamed by (ElfStream).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cuvet/elf/elf_info.hpp"
#include "elf/fatbin_scanner.hpp"

namespace cuvet::elf::detail {

FatbinScan scan_whole_file(std::string_view bytes);

// What a stream found in the bytes it did not keep (a big file's .rodata):
// library names, CUDA compiler releases and cuDNN's release constant, at their
// file offsets, in file order, each searched within runs of bytes between holes.
struct StringHits {
    struct Hit {
        std::uint64_t offset = 0, size = 0;  // of the name, or of the release banner
        std::string text;                    // the name, or the release
    };
    std::vector<Hit> dlopen, releases, cudnn_releases;
};

// `stored`: the whole file, or (cut_out) the file without the scan's holes.
// `hits`: where .rodata's strings are, when its bytes may not all be stored.
std::optional<ElfInfo> inspect_scanned(std::string_view stored, const FatbinScan& scan, bool cut_out,
                                       std::string* why_not, const StringHits* hits = nullptr);

}  // namespace cuvet::elf::detail
