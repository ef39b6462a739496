#include "elf/dynamic.hpp"

#include "cuvet/core/scan_limits.hpp"

namespace cuvet::elf::detail {
namespace {

constexpr std::uint32_t sht_strtab = 3;

// Where the dynamic table lives; nullopt-in-optional means "none" vs "broken".
struct Located {
    bool found = false;
    Range range;
    const Section* section = nullptr;
};

std::optional<Located> locate(const ElfFile& file, std::string* why_not) {
    Located where;
    // ld.so reads the last PT_DYNAMIC (each one overwrites l_ld, elf/dl-load.c) and never
    // the section headers: the .dynamic section is used only where it is that same table
    // (its sh_link names the string table), or for an object without one (a .o).
    const Segment* last = nullptr;
    for (const auto& seg : file.segments())
        if (seg.type == pt_dynamic) last = &seg;
    const Section* s = file.section_of_type(sht_dynamic);
    if (last != nullptr && (s == nullptr || s->offset != last->offset)) {
        if (!file.contains(last->offset, last->filesz)) {
            if (why_not) *why_not = "dynamic segment past end of file (truncated?)";
            return std::nullopt;
        }
        return Located{true, Range{last->offset, last->filesz}, nullptr};
    }
    if (s != nullptr) {
        auto range = file.section_range(*s);
        if (!range) {
            if (why_not) *why_not = "dynamic section past end of file (truncated?)";
            return std::nullopt;
        }
        return Located{true, *range, s};
    }
    return where;
}

// A dynamic entry's tag and value, widened; the table was checked readable.
template <class E>
std::pair<std::uint64_t, std::uint64_t> entry_at(const ElfFile& file, std::uint64_t at) {
    const auto entry = *file.read<typename E::Dyn>(at);
    return {entry.tag, entry.value};
}

struct RawEntries {
    std::vector<std::uint64_t> needed;
    std::optional<std::uint64_t> soname, rpath, runpath, strtab, strsz;
};

}  // namespace

std::optional<Range> linked_strtab(const ElfFile& file, const Section* section,
                                   const DynamicTable& dynamic) {
    if (section) {
        const Section* linked = file.section_at(section->link);
        if (linked && linked->type == sht_strtab) {
            if (auto range = file.section_range(*linked)) return range;
        }
    }
    return dynamic.strtab;
}

std::optional<DynamicTable> read_dynamic(const ElfFile& file, std::string* why_not) {
    auto where = locate(file, why_not);
    if (!where) return std::nullopt;
    if (where->found && !file.readable(where->range.offset, where->range.size)) {
        if (why_not) *why_not = "a GPU code container overlaps the dynamic section";
        return std::nullopt;
    }
    DynamicTable table;
    if (!where->found) return table;
    table.present = true;

    const std::uint64_t entry_size = file.is_64bit() ? sizeof(Elf64Dyn) : sizeof(Elf32Dyn);
    RawEntries raw;
    // The entry count is bounded by the (already bounds-checked) table size,
    // so a hostile file cannot make this loop long.
    for (std::uint64_t at = where->range.offset;
         at + entry_size <= where->range.offset + where->range.size; at += entry_size) {
        const auto [tag, value] =
            file.is_64bit() ? entry_at<Elf64>(file, at) : entry_at<Elf32>(file, at);
        if (tag == dt_null) break;
        switch (tag) {
            case dt_needed:
                // Each name becomes a library to find, in every closure it is part of.
                raw.needed.push_back(value);
                check_limit(raw.needed.size(), scan_limits().needed, "needed", "DT_NEEDED entries");
                break;
            // ld.so keeps the last entry of a tag (elf_get_dynamic_info); so do we.
            case dt_soname:
                raw.soname = value;
                break;
            case dt_rpath:
                raw.rpath = value;
                break;
            case dt_runpath:
                raw.runpath = value;
                break;
            case dt_strtab:
                raw.strtab = value;
                break;
            case dt_strsz:
                raw.strsz = value;
                break;
            case dt_symtab:
                table.symtab = value;
                break;
            case dt_syment:
                table.syment = value;
                break;
            case dt_hash:
                table.hash = value;
                break;
            case dt_gnu_hash:
                table.gnu_hash = value;
                break;
            case dt_verneed:
                table.verneed = value;
                break;
            case dt_verneednum:
                table.verneednum = value;
                break;
            case dt_verdef:
                table.verdef = value;
                break;
            case dt_verdefnum:
                table.verdefnum = value;
                break;
            default:
                break;
        }
    }

    if (raw.strtab) {
        if (auto range = file.range_at_address(*raw.strtab)) {
            if (raw.strsz && *raw.strsz < range->size) range->size = *raw.strsz;
            table.strtab = range;
        }
    }
    // Section headers, when present, name the table exactly (sh_link of .dynamic).
    table.strtab = linked_strtab(file, where->section, table);
    if (!table.strtab) return table;

    // Names are copied into ElfInfo and reports: a million entries naming
    // one long string must not cost a million copies of it.
    std::uint64_t string_bytes = 0;
    auto str = [&](std::uint64_t offset) {
        auto text = file.string_in(*table.strtab, offset);
        if (text) string_bytes += text->size();
        check_limit(string_bytes, scan_limits().dynamic_bytes, "dynamic-bytes",
                    "bytes of DT_NEEDED, DT_SONAME and search path strings");
        return text;
    };
    for (auto offset : raw.needed) {
        if (auto name = str(offset)) table.needed.push_back(*name);
    }
    if (raw.soname) table.soname = str(*raw.soname);
    if (raw.rpath) table.rpath = str(*raw.rpath);
    if (raw.runpath) table.runpath = str(*raw.runpath);
    return table;
}

std::vector<std::string> split_search_path(std::string_view value) {
    std::vector<std::string> parts;
    if (value.empty()) return parts;
    std::size_t start = 0;
    while (true) {
        // Every entry is a directory searched for every DT_NEEDED name.
        check_limit(parts.size() + 1, scan_limits().search_paths, "search-paths",
                    "DT_RPATH/DT_RUNPATH entries");
        const std::size_t colon = value.find(':', start);
        parts.emplace_back(value.substr(start, colon - start));
        if (colon == std::string_view::npos) break;
        start = colon + 1;
    }
    return parts;
}

}  // namespace cuvet::elf::detail
