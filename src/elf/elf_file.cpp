#include "elf/elf_file.hpp"

#include <algorithm>
#include <cstring>

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
    : stored_(stored), size_(stored.size()), known_names_(holes.names) {
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
    auto it = std::lower_bound(known_names_->begin(), known_names_->end(), at,
                               [](const KnownString& known, std::uint64_t at) { return known.offset < at; });
    for (; it != known_names_->end() && it->offset == at; ++it) {
        if (it->text.size() < table.size - offset) return it->text;  // its NUL is inside the table
    }
    return std::nullopt;
}

const char* ElfFile::locate(std::uint64_t offset, std::uint64_t size) const {
    if (!contains(offset, size)) return nullptr;
    if (!holes_) return stored_.data() + offset;
    // The first hole ending after `offset` is the only one that can overlap.
    auto it = std::upper_bound(holes_->begin(), holes_->end(), offset,
                               [](std::uint64_t at, const Range& hole) { return at < hole.offset + hole.size; });
    if (it != holes_->end() && it->offset < offset + size) return nullptr;
    if (it != holes_->end() && size == 0 && it->offset <= offset) return nullptr;
    if (cut_before_.empty()) return stored_.data() + offset;
    const std::uint64_t cut = it == holes_->end()
                                  ? cut_before_.back() + holes_->back().size
                                  : cut_before_[static_cast<std::size_t>(it - holes_->begin())];
    return stored_.data() + (offset - cut);
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
    if (holes_) {
        auto it = std::upper_bound(holes_->begin(), holes_->end(), begin,
                                   [](std::uint64_t at, const Range& hole) { return at < hole.offset + hole.size; });
        if (it != holes_->end()) {
            if (it->offset <= begin) return std::nullopt;
            limit = std::min(limit, it->offset);
        }
    }
    const char* p = locate(begin, limit - begin);
    if (!p) return std::nullopt;
    const void* nul = std::memchr(p, '\0', static_cast<std::size_t>(limit - begin));
    if (!nul) return std::nullopt;
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
    if (size_ < 4 || stored_.substr(0, 4) != std::string_view("\x7f" "ELF", 4)) {
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
    if (size_ < (is64_ ? 64u : 52u)) {
        set_reason(why_not, "truncated ELF header");
        return false;
    }
    if (!readable(0, is64_ ? 64u : 52u)) {
        set_reason(why_not, "a GPU code container overlaps the ELF header");
        return false;
    }
    type_ = *u16(16);
    machine_ = *u16(18);
    // Offsets of e_phoff.. differ between the classes only by the word size.
    const std::uint64_t base = is64_ ? 32 : 28, w = is64_ ? 8 : 4;
    phoff_ = *word(base);
    shoff_ = *word(base + w);
    const std::uint64_t after = base + 2 * w + 4 + 2;  // skip e_flags, e_ehsize
    phentsize_ = *u16(after);
    phnum_ = *u16(after + 2);
    shentsize_ = *u16(after + 4);
    shnum_ = *u16(after + 6);
    shstrndx_ = *u16(after + 8);
    return true;
}

bool ElfFile::read_segments(std::string* why_not) {
    if (phoff_ == 0 || phnum_ == 0) return true;
    const std::uint64_t min_size = is64_ ? 56 : 32;
    if (phentsize_ < min_size) {
        set_reason(why_not, "program header entry size too small");
        return false;
    }
    if (phnum_ == pn_xnum) {
        // The real count sits in sh_info of section 0.
        const std::uint64_t info_at = shoff_ + (is64_ ? 44 : 28);
        auto info = shoff_ ? u32(info_at) : std::nullopt;
        if (!info) {
            set_reason(why_not, "extended program header count unreadable");
            return false;
        }
        phnum_ = *info;
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
        Segment s;
        s.type = *u32(at);
        if (is64_) {
            s.offset = *u64(at + 8);
            s.vaddr = *u64(at + 16);
            s.filesz = *u64(at + 32);
            s.memsz = *u64(at + 40);
        } else {
            s.offset = *u32(at + 4);
            s.vaddr = *u32(at + 8);
            s.filesz = *u32(at + 16);
            s.memsz = *u32(at + 20);
        }
        segments_.push_back(s);
    }
    return true;
}

bool ElfFile::read_sections(std::string* why_not) {
    if (shoff_ == 0) return true;
    const std::uint64_t min_size = is64_ ? 64 : 40;
    if (shentsize_ < min_size) {
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
    if (count == 0) count = *word(shoff_ + (is64_ ? 32 : 20));
    if (shstrndx_ == shn_xindex) shstrndx_ = *u32(shoff_ + (is64_ ? 40 : 24));
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
        Section s;
        s.type = *u32(at + 4);
        if (is64_) {
            s.flags = *u64(at + 8);
            s.addr = *u64(at + 16);
            s.offset = *u64(at + 24);
            s.size = *u64(at + 32);
            s.link = *u32(at + 40);
            s.info = *u32(at + 44);
            s.entsize = *u64(at + 56);
        } else {
            s.flags = *u32(at + 8);
            s.addr = *u32(at + 12);
            s.offset = *u32(at + 16);
            s.size = *u32(at + 20);
            s.link = *u32(at + 24);
            s.info = *u32(at + 28);
            s.entsize = *u32(at + 36);
        }
        sections_.push_back(s);  // named below, once the name table is known
    }
    // Second pass for names: shstrndx may point anywhere in the table.
    const Section* names = section_at(shstrndx_);
    auto names_range = names ? section_range(*names) : std::nullopt;
    if (names_range) {
        for (std::uint64_t i = 0; i < count; ++i) {
            const std::uint32_t offset = *u32(shoff_ + i * shentsize_);
            if (auto name = string_in(*names_range, offset)) {
                sections_[i].name = *name;
            } else if (auto known = known_name(*names_range, offset)) {
                sections_[i].name = *known;
            }
        }
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
