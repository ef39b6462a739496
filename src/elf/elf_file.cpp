#include "elf/elf_file.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

namespace cuvet::elf::detail {
namespace {

constexpr std::uint16_t pn_xnum = 0xffff;     // e_phnum overflow: real count in section 0
constexpr std::uint16_t shn_xindex = 0xffff;  // e_shstrndx overflow: real index in section 0

void set_reason(std::string* why_not, const char* reason) {
    if (why_not) *why_not = reason;
}

// Assembling bytes (instead of a memcpy into the host's integer) keeps the
// reader correct on any host; compilers turn it into one load on little-endian.
template <typename T>
T load_le(const char* p) {
    T value = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) {
        value |= static_cast<T>(static_cast<unsigned char>(p[i])) << (8 * i);
    }
    return value;
}

}  // namespace

ElfFile::ElfFile(std::string_view stored, Holes holes)
    : stored_(stored),
      size_(stored.size()),
      known_names_(holes.names),
      unkept_(holes.unkept),
      read_unkept_(holes.read_unkept) {
    if (!holes.ranges || holes.ranges->empty()) return;
    holes_ = holes.ranges;
    if (!holes.cut_out) return;
    cut_before_.reserve(holes_->size());
    std::uint64_t cut = 0;
    for (const Range& hole : *holes_) {
        cut_before_.push_back(cut);
        cut += hole.size;
    }
    size_ += cut;
}

std::optional<std::string_view> ElfFile::known_name(Range table, std::uint64_t offset) const {
    if (!known_names_ || offset >= table.size) return std::nullopt;
    const std::uint64_t at = table.offset + offset;
    auto it = std::lower_bound(
        known_names_->begin(), known_names_->end(), at,
        [](const KnownString& known, std::uint64_t at) { return known.offset < at; });
    for (; it != known_names_->end() && it->offset == at; ++it) {
        if (it->text.size() < table.size - offset) return it->text;  // its NUL is inside the table
    }
    return std::nullopt;
}

void ElfFile::note_unkept(std::uint64_t offset, std::uint64_t size) const {
    if (!unkept_ || !read_unkept_) return;
    auto it = std::upper_bound(
        unkept_->begin(), unkept_->end(), offset,
        [](std::uint64_t at, const Range& range) { return at < range.offset + range.size; });
    if (it != unkept_->end() && it->offset < offset + std::max<std::uint64_t>(size, 1))
        *read_unkept_ = true;
}

const char* ElfFile::locate(std::uint64_t offset, std::uint64_t size) const {
    if (!contains(offset, size)) return nullptr;
    if (!holes_) return stored_.data() + offset;
    // The first hole ending after `offset` is the only one that can overlap.
    auto it = std::upper_bound(
        holes_->begin(), holes_->end(), offset,
        [](std::uint64_t at, const Range& hole) { return at < hole.offset + hole.size; });
    if ((it != holes_->end() && it->offset < offset + size) ||
        (it != holes_->end() && size == 0 && it->offset <= offset)) {
        note_unkept(offset, size);
        return nullptr;
    }
    if (cut_before_.empty()) return stored_.data() + offset;
    const std::uint64_t cut = it == holes_->end()
                                  ? cut_before_.back() + holes_->back().size
                                  : cut_before_[static_cast<std::size_t>(it - holes_->begin())];
    return stored_.data() + (offset - cut);
}

bool ElfFile::held(std::uint64_t offset, std::uint64_t size) const {
    if (!contains(offset, size)) return false;
    if (!holes_) return true;
    auto it = std::upper_bound(
        holes_->begin(), holes_->end(), offset,
        [](std::uint64_t at, const Range& hole) { return at < hole.offset + hole.size; });
    return it == holes_->end() || it->offset >= offset + std::max<std::uint64_t>(size, 1);
}

std::optional<std::uint8_t> ElfFile::u8(std::uint64_t offset) const {
    const char* p = locate(offset, 1);
    if (!p) return std::nullopt;
    return static_cast<std::uint8_t>(*p);
}

std::optional<std::uint16_t> ElfFile::u16(std::uint64_t offset) const {
    const char* p = locate(offset, 2);
    if (!p) return std::nullopt;
    return load_le<std::uint16_t>(p);
}

std::optional<std::uint32_t> ElfFile::u32(std::uint64_t offset) const {
    const char* p = locate(offset, 4);
    if (!p) return std::nullopt;
    return load_le<std::uint32_t>(p);
}

std::optional<std::uint64_t> ElfFile::u64(std::uint64_t offset) const {
    const char* p = locate(offset, 8);
    if (!p) return std::nullopt;
    return load_le<std::uint64_t>(p);
}

std::string_view ElfFile::span(Range range) const {
    const char* p = locate(range.offset, range.size);
    if (!p) return {};
    return std::string_view(p, static_cast<std::size_t>(range.size));
}

std::optional<std::string_view> ElfFile::string_in(Range table, std::uint64_t offset) const {
    if (offset >= table.size) return std::nullopt;
    const std::uint64_t begin = table.offset + offset;
    std::uint64_t limit = table.offset + table.size;  // the string must end before a hole
    bool into_hole = false;
    if (holes_) {
        auto it = std::upper_bound(
            holes_->begin(), holes_->end(), begin,
            [](std::uint64_t at, const Range& hole) { return at < hole.offset + hole.size; });
        if (it != holes_->end()) {
            if (it->offset <= begin) {
                note_unkept(begin, 1);
                return std::nullopt;
            }
            if (it->offset < limit) {
                limit = it->offset;
                into_hole = true;
            }
        }
    }
    const char* p = locate(begin, limit - begin);
    if (!p) return std::nullopt;
    const void* nul = std::memchr(p, '\0', static_cast<std::size_t>(limit - begin));
    if (!nul) {
        if (into_hole) note_unkept(limit, 1);
        return std::nullopt;
    }
    return std::string_view(p, static_cast<const char*>(nul) - p);
}

std::optional<ElfFile> ElfFile::open(std::string_view stored, std::string* why_not, Holes holes) {
    ElfFile file(stored, holes);
    if (!file.read_header(why_not) || !file.read_segments(why_not) ||
        !file.read_sections(why_not)) {
        return std::nullopt;
    }
    return file;
}

bool ElfFile::read_header(std::string* why_not) {
    // No hole can start in the first 48 bytes (a fatbin container and an
    // entry header come before any payload), so the identification bytes are stored as is.
    if (size_ < 4 || stored_.substr(0, 4) != std::string_view("\x7f"
                                                              "ELF",
                                                              4)) {
        set_reason(why_not, "not an ELF file (bad magic)");
        return false;
    }
    if (size_ < 16 || stored_.size() < 16) {
        set_reason(why_not, "truncated ELF header");
        return false;
    }
    const unsigned char ei_class = stored_[4], ei_data = stored_[5];
    if (ei_class != 1 && ei_class != 2) {
        set_reason(why_not, "unknown ELF class");
        return false;
    }
    if (ei_data == 2) {
        set_reason(why_not, "big-endian ELF is not supported");
        return false;
    }
    if (ei_data != 1) {
        set_reason(why_not, "unknown ELF data encoding");
        return false;
    }
    is64_ = ei_class == 2;
    const std::uint64_t header_size = is64_ ? sizeof(Elf64Ehdr) : sizeof(Elf32Ehdr);
    if (size_ < header_size) {
        set_reason(why_not, "truncated ELF header");
        return false;
    }
    if (!readable(0, header_size)) {
        set_reason(why_not, "a GPU code container overlaps the ELF header");
        return false;
    }
    if (is64_) {
        read_header_fields<Elf64>();
    } else {
        read_header_fields<Elf32>();
    }
    return true;
}

template <class E>
void ElfFile::read_header_fields() {
    const auto header = *read<typename E::Ehdr>(0);
    type_ = header.type;
    machine_ = header.machine;
    phoff_ = header.phoff;
    shoff_ = header.shoff;
    phentsize_ = header.phentsize;
    phnum_ = header.phnum;
    shentsize_ = header.shentsize;
    shnum_ = header.shnum;
    shstrndx_ = header.shstrndx;
}

template <class E>
Segment ElfFile::segment_at(std::uint64_t offset) const {
    return to_segment(*read<typename E::Phdr>(offset));
}

template <class E>
Section ElfFile::section_header_at(std::uint64_t offset) const {
    return to_section(*read<typename E::Shdr>(offset));
}

Section ElfFile::section_zero() const {
    return is64_ ? section_header_at<Elf64>(shoff_) : section_header_at<Elf32>(shoff_);
}

bool ElfFile::read_segments(std::string* why_not) {
    // ld.so refuses a program or library whose e_phentsize is not its Phdr size, larger too
    // ("ELF file's phentsize not the expected size"), before it looks at anything else.
    constexpr std::uint16_t et_exec = 2, et_dyn = 3;
    if ((type_ == et_exec || type_ == et_dyn) &&
        phentsize_ != (is64_ ? sizeof(Elf64Phdr) : sizeof(Elf32Phdr))) {
        set_reason(why_not, "program header entry size is not the ELF class's (ld.so refuses it)");
        return false;
    }
    if (phoff_ == 0 || phnum_ == 0) return true;
    if (phentsize_ < (is64_ ? sizeof(Elf64Phdr) : sizeof(Elf32Phdr))) {
        set_reason(why_not, "program header entry size too small");
        return false;
    }
    if (phnum_ == pn_xnum) {
        // The real count sits in sh_info of section 0.
        const bool readable_zero =
            shoff_ && readable(shoff_, is64_ ? sizeof(Elf64Shdr) : sizeof(Elf32Shdr));
        if (!readable_zero) {
            set_reason(why_not, "extended program header count unreadable");
            return false;
        }
        phnum_ = section_zero().info;
    }
    if (phoff_ > size_ || phnum_ > (size_ - phoff_) / phentsize_) {
        set_reason(why_not, "program header table past end of file (truncated?)");
        return false;
    }
    if (!readable(phoff_, phnum_ * phentsize_)) {
        set_reason(why_not, "a GPU code container overlaps the program headers");
        return false;
    }
    segments_.reserve(phnum_);
    for (std::uint64_t i = 0; i < phnum_; ++i) {
        const std::uint64_t at = phoff_ + i * phentsize_;
        const Segment s = is64_ ? segment_at<Elf64>(at) : segment_at<Elf32>(at);
        segments_.push_back(s);
    }
    return true;
}

bool ElfFile::read_sections(std::string* why_not) {
    if (shoff_ == 0) return true;
    if (shentsize_ < (is64_ ? sizeof(Elf64Shdr) : sizeof(Elf32Shdr))) {
        set_reason(why_not, "section header entry size too small");
        return false;
    }
    if (shoff_ > size_ || size_ - shoff_ < shentsize_) {
        set_reason(why_not, "section header table past end of file (truncated?)");
        return false;
    }
    if (!readable(shoff_, shentsize_)) {
        set_reason(why_not, "a GPU code container overlaps the section headers");
        return false;
    }
    // Section 0 carries the real counts when they overflow the header fields.
    std::uint64_t count = shnum_;
    if (count == 0) count = section_zero().size;
    if (shstrndx_ == shn_xindex) shstrndx_ = section_zero().link;
    if (count > (size_ - shoff_) / shentsize_) {
        set_reason(why_not, "section header table past end of file (truncated?)");
        return false;
    }
    if (!readable(shoff_, count * shentsize_)) {
        set_reason(why_not, "a GPU code container overlaps the section headers");
        return false;
    }
    sections_.reserve(count);
    for (std::uint64_t i = 0; i < count; ++i) {
        const std::uint64_t at = shoff_ + i * shentsize_;
        const Section s = is64_ ? section_header_at<Elf64>(at) : section_header_at<Elf32>(at);
        sections_.push_back(s);  // named below, once the name table is known
    }
    // Second pass for names: shstrndx may point anywhere in the table.
    const Section* names = section_at(shstrndx_);
    auto names_range = names ? section_range(*names) : std::nullopt;
    if (names_range) {
        // Unkept names are not a failed read: the stream recorded the ones
        // inspect reads sections by (known_name).
        bool* const read_unkept = std::exchange(read_unkept_, nullptr);
        for (std::uint64_t i = 0; i < count; ++i) {
            const std::uint32_t offset =
                *u32(shoff_ + i * shentsize_);  // sh_name, first in both classes
            if (auto name = string_in(*names_range, offset)) {
                sections_[i].name = *name;
            } else if (auto known = known_name(*names_range, offset)) {
                sections_[i].name = *known;
            }
        }
        read_unkept_ = read_unkept;
    }
    return true;
}

const Section* ElfFile::section_at(std::uint32_t index) const {
    return index < sections_.size() ? &sections_[index] : nullptr;
}

const Section* ElfFile::section_named(std::string_view name) const {
    for (const auto& s : sections_) {
        if (s.name == name) return &s;
    }
    return nullptr;
}

const Section* ElfFile::section_of_type(std::uint32_t type) const {
    for (const auto& s : sections_) {
        if (s.type == type) return &s;
    }
    return nullptr;
}

std::optional<Range> ElfFile::section_range(const Section& section) const {
    if (section.type == sht_nobits || !contains(section.offset, section.size)) return std::nullopt;
    return Range{section.offset, section.size};
}

std::optional<Range> ElfFile::range_at_address(std::uint64_t address) const {
    for (const auto& seg : segments_) {
        if (seg.type != pt_load || address < seg.vaddr) continue;
        const std::uint64_t delta = address - seg.vaddr;
        if (delta >= seg.filesz) continue;
        const std::uint64_t offset = seg.offset + delta;
        if (offset < seg.offset || offset > size_) continue;  // overflow or past the end
        std::uint64_t size = seg.filesz - delta;
        if (size > size_ - offset) size = size_ - offset;
        return Range{offset, size};
    }
    return std::nullopt;
}

std::optional<std::uint64_t> ElfFile::offset_of_address(std::uint64_t address) const {
    auto range = range_at_address(address);
    if (!range) return std::nullopt;
    return range->offset;
}

}  // namespace cuvet::elf::detail
