#pragma once
// A zero-copy, bounds-checked view of one ELF file (ELF32/ELF64,
// little-endian). Nothing here copies file data: section names and strings are
// string_views into the caller's bytes, so a 500 MB library costs only the
// pages we actually touch. Every read checks its bounds and fails soft
// (nullopt / empty view), so callers never index past the end.
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "elf/elf_structs.hpp"

namespace cuvet::elf::detail {

// ELF constants we use (from <elf.h>, spelled out so the reader does not depend
// on the host's headers).
inline constexpr std::uint32_t sht_hash = 5;
inline constexpr std::uint32_t sht_gnu_hash = 0x6ffffff6;
inline constexpr std::uint32_t sht_dynsym = 11;
inline constexpr std::uint32_t sht_dynamic = 6;
inline constexpr std::uint32_t sht_nobits = 8;
inline constexpr std::uint32_t sht_gnu_verdef = 0x6ffffffd;
inline constexpr std::uint32_t sht_gnu_verneed = 0x6ffffffe;
inline constexpr std::uint32_t pt_load = 1;
inline constexpr std::uint32_t pt_dynamic = 2;
// The dynamic section's tags that cuvet reads (d_tag), for the dynamic table and the ELF stream.
enum : std::uint64_t {
    dt_null = 0,
    dt_needed = 1,
    dt_hash = 4,
    dt_strtab = 5,
    dt_symtab = 6,
    dt_strsz = 10,
    dt_syment = 11,
    dt_soname = 14,
    dt_rpath = 15,
    dt_runpath = 29,
    dt_gnu_hash = 0x6ffffef5,
    dt_verdef = 0x6ffffffc,
    dt_verdefnum = 0x6ffffffd,
    dt_verneed = 0x6ffffffe,
    dt_verneednum = 0x6fffffff,
};

struct Section {
    std::string_view name;
    std::uint32_t type = 0;
    std::uint64_t flags = 0, addr = 0, offset = 0, size = 0, entsize = 0;
    std::uint32_t link = 0, info = 0;
};

struct Segment {
    std::uint32_t type = 0;
    std::uint64_t offset = 0, vaddr = 0, filesz = 0, memsz = 0;
};

// An on-disk header (elf/elf_structs.hpp, either class) as the views above.
template <class Phdr>
Segment to_segment(const Phdr& p) {
    return Segment{p.type, p.offset, p.vaddr, p.filesz, p.memsz};
}
template <class Shdr>
Section to_section(const Shdr& h) {
    Section s;
    s.type = h.type;
    s.flags = h.flags;
    s.addr = h.addr;
    s.offset = h.offset;
    s.size = h.size;
    s.link = h.link;
    s.info = h.info;
    s.entsize = h.entsize;
    return s;
}

// A structure copied out of bytes known to hold it.
template <class T>
T copy_as(const char* bytes) {
    T value;
    std::memcpy(&value, bytes, sizeof(T));
    return value;
}

// A range of the file: [offset, offset + size), already checked to lie inside it.
struct Range {
    std::uint64_t offset = 0, size = 0;
};

// Ranges of the file whose bytes are unknown (skipped GPU code), sorted and
// disjoint. `cut_out`: the stored bytes are the file with these ranges
// removed (a streamed file); otherwise the stored bytes are the whole file
// and the holes are only not to be read.
// A string known to lie at a file offset inside a hole: a stream records
// where section names it cares about went by, so that a section-name table
// it did not keep still names those sections.
struct KnownString {
    std::uint64_t offset = 0;
    std::string_view text;
};

struct Holes {
    const std::vector<Range>* ranges = nullptr;
    bool cut_out = false;
    const std::vector<KnownString>* names = nullptr;  // sorted by offset
    // The holes a stream made by not keeping bytes (sorted, disjoint): a read
    // that needs any of them sets *read_unkept, so that facts are never
    // silently partial (the stream then fails closed).
    const std::vector<Range>* unkept = nullptr;
    bool* read_unkept = nullptr;
};

class ElfFile {
public:
    // Validates the header and both header tables; nullopt (with a reason) when
    // the file is not an ELF we can read or a table lies outside the bytes.
    // Reads that touch a hole fail like reads past the end.
    static std::optional<ElfFile> open(std::string_view stored, std::string* why_not,
                                       Holes holes = {});

    bool is_64bit() const { return is64_; }
    std::uint16_t machine() const { return machine_; }
    std::uint16_t type() const { return type_; }
    std::uint64_t size() const { return size_; }  // of the file, holes included

    const std::vector<Section>& sections() const { return sections_; }
    const std::vector<Segment>& segments() const { return segments_; }
    const Section* section_named(std::string_view name) const;
    const Section* section_of_type(std::uint32_t type) const;
    const Section* section_at(std::uint32_t index) const;
    // The file bytes of a section, when it has any inside the file.
    std::optional<Range> section_range(const Section& section) const;

    // Maps a virtual address to a file offset through the PT_LOAD segments, as
    // the loader would. nullopt when no segment holds the address in its file part.
    std::optional<std::uint64_t> offset_of_address(std::uint64_t address) const;
    // Bytes from the file offset of `address` up to the end of its PT_LOAD file part.
    std::optional<Range> range_at_address(std::uint64_t address) const;

    // One on-disk structure (elf/elf_structs.hpp) at `offset`; nullopt past the end or in a hole.
    template <class T>
    std::optional<T> read(std::uint64_t offset) const {
        const char* p = locate(offset, sizeof(T));
        if (!p) return std::nullopt;
        return copy_as<T>(p);
    }
    // Bounds-checked little-endian loads; nullopt past the end or in a hole.
    std::optional<std::uint8_t> u8(std::uint64_t offset) const;
    std::optional<std::uint16_t> u16(std::uint64_t offset) const;
    std::optional<std::uint32_t> u32(std::uint64_t offset) const;
    std::optional<std::uint64_t> u64(std::uint64_t offset) const;
    // A class-sized word (Elf32_Addr / Elf64_Addr and friends).
    std::optional<std::uint64_t> word(std::uint64_t offset) const {
        if (is64_) return u64(offset);
        auto narrow = u32(offset);
        if (!narrow) return std::nullopt;
        return std::uint64_t{*narrow};
    }
    bool contains(std::uint64_t offset, std::uint64_t size) const {
        return offset <= size_ && size <= size_ - offset;
    }
    // Inside the file and clear of holes: the bytes are the file's own.
    bool readable(std::uint64_t offset, std::uint64_t size) const {
        return locate(offset, size) != nullptr;
    }
    // Readable, asked without noting an unkept read: for optional facts, which stay unknown
    // where a stream did not keep their bytes instead of failing the whole file.
    bool held(std::uint64_t offset, std::uint64_t size) const;
    // The bytes of a readable range; empty otherwise.
    std::string_view span(Range range) const;
    // The NUL-terminated string at `offset` inside `table`; nullopt when the
    // offset is outside the table or the string runs off its end or into a hole.
    std::optional<std::string_view> string_in(Range table, std::uint64_t offset) const;
    // A string recorded at `offset` inside `table` where its bytes are in a hole.
    std::optional<std::string_view> known_name(Range table, std::uint64_t offset) const;

private:
    ElfFile(std::string_view stored, Holes holes);
    // Where the bytes [offset, offset + size) are stored; nullptr when they are
    // not all there. size 0 asks for the position only.
    const char* locate(std::uint64_t offset, std::uint64_t size) const;
    bool read_header(std::string* why_not);
    bool read_segments(std::string* why_not);
    bool read_sections(std::string* why_not);
    template <class E>
    void read_header_fields();
    template <class E>
    Segment segment_at(std::uint64_t offset) const;
    template <class E>
    Section section_header_at(std::uint64_t offset) const;
    // Section 0, where overflowing header counts are kept (its headers are readable).
    Section section_zero() const;

    std::string_view stored_;
    std::uint64_t size_ = 0;
    const std::vector<Range>* holes_ = nullptr;  // null when there are none
    const std::vector<KnownString>* known_names_ = nullptr;
    const std::vector<Range>* unkept_ = nullptr;
    bool* read_unkept_ = nullptr;
    // Notes a failed read of [offset, offset + size) that needed unkept bytes.
    void note_unkept(std::uint64_t offset, std::uint64_t size) const;
    std::vector<std::uint64_t> cut_before_;  // cut_out: bytes of holes before hole i
    bool is64_ = true;
    std::uint16_t machine_ = 0, type_ = 0;
    std::uint64_t phoff_ = 0, shoff_ = 0;
    std::uint16_t phentsize_ = 0, shentsize_ = 0;
    std::uint32_t phnum_ = 0, shnum_ = 0, shstrndx_ = 0;
    std::vector<Section> sections_;
    std::vector<Segment> segments_;
};

}  // namespace cuvet::elf::detail
