#pragma once
// elf::inspect once the file's fatbin containers and holes are known: shared
// by whole files (elf::inspect) and files that streamed by (ElfStream).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cuvet/elf/elf_info.hpp"
#include "elf/elf_file.hpp"
#include "elf/fatbin_scanner.hpp"

namespace cuvet::elf::detail {

FatbinScan scan_whole_file(std::string_view bytes);

// The sections elf::inspect reads by name: GPU code in .nv_fatbin, and where
// CUDA libraries keep fatbins they load themselves (containers elsewhere, e.g.
// a fatbin embedded as data in .rodata, are not kernels the CUDA runtime
// sees); library names and releases in .rodata.
inline constexpr std::string_view fatbin_sections[] = {".nv_fatbin", ".ldata", ".cask_resource"};
inline constexpr std::string_view rodata_section = ".rodata";

// What a stream did not keep: those ranges (holes of the stored bytes, like
// GPU payloads), and what it found in them as they went by: library names,
// CUDA compiler releases and cuDNN release constants at their file offsets,
// in file order, each searched within runs of bytes between holes.
struct Unkept {
    std::vector<Range> ranges;  // sorted, disjoint
    struct Hit {
        std::uint64_t offset = 0, size = 0;  // of the name, or of the banner/constant's prefix
        std::string text;  // the name, or the bytes from the prefix on (release_window)
    };
    std::vector<Hit> dlopen, releases, cudnn_releases;
    // Where the names of the sections above went by (with a NUL after them),
    // sorted: a section-name table the stream did not keep still names them.
    std::vector<KnownString> section_names;
};

// Thrown by inspect_scanned when a fact needs bytes a stream did not keep.
struct UnkeptRead {};

// `stored`: the whole file, or (cut_out) the file without the scan's holes.
// `unkept`: what a stream did not keep (.rodata's strings are found there);
// a read that needs those bytes throws UnkeptRead instead of giving partial facts.
std::optional<ElfInfo> inspect_scanned(std::string_view stored, const FatbinScan& scan,
                                       bool cut_out, std::string* why_not,
                                       const Unkept* unkept = nullptr);

}  // namespace cuvet::elf::detail
