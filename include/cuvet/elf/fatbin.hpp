#pragma once
// The GPU code inside a `.nv_fatbin` section: which SASS (sm_XX) and PTX
// (compute_XX) architectures it carries. The container layout is documented in
// src/elf/fatbin.cpp.
#include <cstdint>
#include <string_view>
#include <vector>

namespace cuvet::elf {

struct FatbinEntry {
    std::uint16_t kind = 0;          // 1 PTX, 2 ELF (SASS cubin), others: see fatbin.cpp
    int arch = 0;                    // 80 for sm_80 / compute_80
    std::uint64_t offset = 0;        // of the entry header, within the section
    std::uint64_t payload_size = 0;  // bytes after the entry header (padded)
    bool compressed = false;
};

struct FatbinSummary {
    std::vector<int> sass_archs;  // sorted, unique
    std::vector<int> ptx_archs;   // sorted, unique
    std::size_t containers = 0;
    std::size_t entries = 0;          // all kinds, including those we do not classify
    bool truncated = false;           // a container or entry ran past the section's end
    std::vector<FatbinEntry> detail;  // filled only when asked (keep_entries)
};

// Walks every fatbin container in `section`. Never reads outside it; progress
// is guaranteed on each step, so the walk is bounded by the section size.
FatbinSummary parse_fatbin(std::string_view section, bool keep_entries = false);

// For sections that hold fatbins among other data (.ldata, .cask_resource):
// containers are looked for at 8-byte aligned offsets of `bytes` (fatbins are
// emitted as arrays of 64-bit words; `base_offset` is the file offset of
// bytes[0], so alignment is that of the file), and a container counts only
// when it is well formed: version 1, 16-byte header, entries that end exactly
// at its end. A stray magic number in unrelated data is skipped.
FatbinSummary find_embedded_fatbins(std::string_view bytes, std::uint64_t base_offset);

}  // namespace cuvet::elf
