// The CUDA fat binary container, as found in an ELF's `.nv_fatbin` section.
//
// NVIDIA does not document this format. The layout below is what we parse; it
// agrees with the open-source readers (jiegec/fatbinary, after
// n-eiling/cuda-fatbin-decompression; GrigoryEvko/nvopen-tools'
// fatbin/FORMAT_SPECIFICATION.md) and was checked against every library of
// CUDA 13.0 / cuDNN 9.19 (e.g. libcublasLt.so.13: 2782 containers, 5737
// entries; every container's entries end exactly at its declared size, and the
// containers follow each other with no gap). All integers are little-endian.
//
// The section holds one or more containers back to back:
//
//   container header, 16 bytes
//     +0  u32 magic        0xBA55ED50
//     +4  u16 version      1
//     +6  u16 header_size  16: the entries start at container + header_size
//     +8  u64 fat_size     bytes of entries that follow the header
//
//   entry header, `header_size` bytes (64; 80..144 for PTX and for sm_100+)
//     +0  u16 kind         1 PTX, 2 ELF (SASS cubin); 4 (old cubin) and 0x10
//                          (listed as ELF by cuobjdump) are counted as SASS too
//     +2  u16 attributes   0x0101 in every file seen
//     +4  u32 header_size  of this entry header; the payload follows it
//     +8  u64 payload_size bytes of payload (padded to 8), so the next entry is
//                          at entry + header_size + payload_size
//     +16 u32 compressed_size (0 when not compressed)
//     +20 u32 options_offset  (PTX: where the ptxas options live)
//     +24 u16 minor, +26 u16 major: the code version ([1,7] for cubins)
//     +28 u32 arch         80 for sm_80 (kind 2) or compute_80 (kind 1)
//     +32 u32 obj_name_offset, +36 u32 obj_name_len
//     +40 u64 flags        0x1 64-bit, 0x10 Linux host, 0x2000 compressed
//                          (NVIDIA's LZ-style), 0x8000 compressed (zstd, CUDA 13)
//     +48 u64 zero
//     +56 u64 decompressed_size
//
// Kind 8 (12728 entries in libcufft's .ldata, arch 75) is neither SASS nor PTX
// for cuobjdump's listings (most likely LTO-IR for JIT linking); it is counted
// in `entries` only.
//
// Besides .nv_fatbin, some libraries keep containers in other sections and
// load them themselves: libcufft.so.12 has 23983 in .ldata (its .nv_fatbin
// holds only sm_75), libcublasLt and cuDNN's engines some in .cask_resource.
// find_embedded_fatbins() finds those: 8-byte aligned magic, strict header
// and entry checks. cuobjdump --list-elf/--list-ptx lists .nv_fatbin only
// (checked on CUDA 13.0: 36 of 37 libraries match exactly; libcufft differs
// only by its .ldata kernels; scripts/fatbin_crosscheck).
//
// We read only the headers: a 500 MB library is walked in microseconds, never
// decompressed and never copied. Architecture-specific variants (sm_90a,
// sm_100f) carry the same `arch` number and are reported as that number.
#include "cuvet/elf/fatbin.hpp"

#include <algorithm>
#include <cstring>

#include "cuvet/core/sort_unique.hpp"

namespace cuvet::elf {
namespace {

constexpr std::uint64_t container_header_size = 16;
constexpr std::uint64_t min_entry_header = 32;  // through `arch`
constexpr std::uint64_t compressed_flags = 0x2000 | 0x8000;

template <typename T>
T load_le(std::string_view bytes, std::uint64_t at) {
    T value = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) {
        value |= static_cast<T>(static_cast<unsigned char>(bytes[at + i])) << (8 * i);
    }
    return value;
}

bool is_sass_kind(std::uint16_t kind) { return kind == 2 || kind == 4 || kind == 0x10; }

// The next container magic at or after `from`; sections may pad between
// containers, so we look for it rather than assume adjacency.
std::uint64_t find_magic(std::string_view section, std::uint64_t from) {
    static constexpr char magic[4] = {'\x50', '\xED', '\x55', '\xBA'};  // 0xBA55ED50
    while (from + 4 <= section.size()) {
        const void* hit = std::memchr(section.data() + from, magic[0], section.size() - from);
        if (!hit) break;
        const std::uint64_t at = static_cast<const char*>(hit) - section.data();
        if (at + 4 <= section.size() && std::memcmp(section.data() + at, magic, 4) == 0) return at;
        from = at + 1;
    }
    return section.size();
}

// Walks the entries of one container, [begin, end) inside the section.
void walk_entries(std::string_view section, std::uint64_t begin, std::uint64_t end,
                  bool keep_entries, FatbinSummary& summary) {
    std::uint64_t at = begin;
    while (at < end) {
        if (end - at < min_entry_header) {
            summary.truncated = true;
            return;
        }
        const auto kind = load_le<std::uint16_t>(section, at);
        const std::uint64_t header_size = load_le<std::uint32_t>(section, at + 4);
        const std::uint64_t payload_size = load_le<std::uint64_t>(section, at + 8);
        if (header_size < min_entry_header || header_size > end - at ||
            payload_size > end - at - header_size) {
            summary.truncated = true;
            return;
        }
        const int arch = static_cast<int>(load_le<std::uint32_t>(section, at + 28) & 0x7fffffff);
        ++summary.entries;
        if (kind == 1)
            summary.ptx_archs.push_back(arch);
        else if (is_sass_kind(kind))
            summary.sass_archs.push_back(arch);
        if (keep_entries) {
            const bool has_flags = header_size >= 48;
            const std::uint64_t flags = has_flags ? load_le<std::uint64_t>(section, at + 40) : 0;
            summary.detail.push_back(
                FatbinEntry{kind, arch, at, payload_size, (flags & compressed_flags) != 0});
        }
        at += header_size + payload_size;  // header_size >= 32: always progresses
    }
}

// The container at `at`, when it is well formed; its end, or 0.
std::uint64_t strict_container(std::string_view bytes, std::uint64_t at, FatbinSummary& summary) {
    if (bytes.size() - at < container_header_size) return 0;
    if (load_le<std::uint16_t>(bytes, at + 4) != 1 ||
        load_le<std::uint16_t>(bytes, at + 6) != container_header_size) {
        return 0;
    }
    const std::uint64_t fat_size = load_le<std::uint64_t>(bytes, at + 8);
    if (fat_size > bytes.size() - at - container_header_size) return 0;
    const std::uint64_t end = at + container_header_size + fat_size;
    FatbinSummary one;
    walk_entries(bytes, at + container_header_size, end, false, one);
    if (one.truncated || one.entries == 0) return 0;
    ++summary.containers;
    summary.entries += one.entries;
    summary.sass_archs.insert(summary.sass_archs.end(), one.sass_archs.begin(),
                              one.sass_archs.end());
    summary.ptx_archs.insert(summary.ptx_archs.end(), one.ptx_archs.begin(), one.ptx_archs.end());
    return end;
}

}  // namespace

FatbinSummary find_embedded_fatbins(std::string_view bytes, std::uint64_t base_offset) {
    FatbinSummary summary;
    // memchr for the magic's last byte runs at memory speed (a word-by-word
    // loop measured 4x slower on libcublasLt's 110 MB .cask_resource); each
    // hit is checked for alignment and the full magic, and a well-formed
    // container is then skipped whole.
    std::uint64_t from = 0;
    while (from + container_header_size <= bytes.size()) {
        const void* hit = std::memchr(bytes.data() + from + 3, '\xBA', bytes.size() - from - 3);
        if (!hit) break;
        const std::uint64_t at = static_cast<const char*>(hit) - bytes.data() - 3;
        from = at + 1;
        if ((base_offset + at) % 8 != 0 || bytes.size() - at < container_header_size ||
            load_le<std::uint32_t>(bytes, at) != 0xBA55ED50) {
            continue;
        }
        if (const std::uint64_t end = strict_container(bytes, at, summary)) from = end;
    }
    sort_unique(summary.sass_archs);
    sort_unique(summary.ptx_archs);
    return summary;
}

FatbinSummary parse_fatbin(std::string_view section, bool keep_entries) {
    FatbinSummary summary;
    std::uint64_t at = find_magic(section, 0);
    while (at + container_header_size <= section.size()) {
        const std::uint64_t header_size = load_le<std::uint16_t>(section, at + 6);
        const std::uint64_t fat_size = load_le<std::uint64_t>(section, at + 8);
        const std::uint64_t room = section.size() - at;
        if (header_size < container_header_size || header_size > room) {
            summary.truncated = true;
            at = find_magic(section, at + 1);
            continue;
        }
        ++summary.containers;
        std::uint64_t end = section.size();
        if (fat_size <= room - header_size) {
            end = at + header_size + fat_size;
        } else {
            summary.truncated = true;
        }
        walk_entries(section, at + header_size, end, keep_entries, summary);
        at = find_magic(section, std::max(end, at + 1));
    }
    sort_unique(summary.sass_archs);
    sort_unique(summary.ptx_archs);
    return summary;
}

}  // namespace cuvet::elf
