// elf::inspect: every fact of ElfInfo from one pass of cheap, bounded reads.
#include <string>

#include "cuvet/elf/dlopen_strings.hpp"
#include "cuvet/elf/elf_info.hpp"
#include "cuvet/elf/fatbin.hpp"
#include "elf/dynamic.hpp"
#include "elf/elf_file.hpp"
#include "elf/symbols.hpp"
#include "elf/versions.hpp"

namespace cuvet::elf {
namespace {

using detail::ElfFile;

// Where library names for dlopen live: .rodata when the file has section
// headers, the whole file otherwise (a stripped-section file still works).
std::string_view dlopen_search_area(const ElfFile& file) {
    if (file.sections().empty()) return file.bytes();
    const detail::Section* rodata = file.section_named(".rodata");
    if (!rodata) return {};
    auto range = file.section_range(*rodata);
    if (!range) return {};
    return file.bytes().substr(range->offset, range->size);
}

void read_fatbin(const ElfFile& file, ElfInfo& info) {
    const detail::Section* section = file.section_named(".nv_fatbin");
    if (!section) return;
    auto range = file.section_range(*section);
    if (!range) return;
    const FatbinSummary summary = parse_fatbin(file.bytes().substr(range->offset, range->size));
    info.has_fatbin = true;
    info.sass_archs = summary.sass_archs;
    info.ptx_archs = summary.ptx_archs;
}

}  // namespace

std::optional<ElfInfo> inspect(std::string_view bytes, std::string* why_not) {
    auto file = ElfFile::open(bytes, why_not);
    if (!file) return std::nullopt;
    auto dynamic = detail::read_dynamic(*file, why_not);
    if (!dynamic) return std::nullopt;

    ElfInfo info;
    info.is_64bit = file->is_64bit();
    info.machine = file->machine();
    info.type = file->type();
    if (dynamic->soname) info.soname = *dynamic->soname;
    info.needed.assign(dynamic->needed.begin(), dynamic->needed.end());
    if (dynamic->rpath) {
        info.has_rpath = true;
        info.rpath = detail::split_search_path(*dynamic->rpath);
    }
    if (dynamic->runpath) {
        info.has_runpath = true;
        info.runpath = detail::split_search_path(*dynamic->runpath);
    }
    info.version_needs = detail::read_version_needs(*file, *dynamic);
    info.version_definitions = detail::read_version_definitions(*file, *dynamic);
    auto symbols = detail::read_dynamic_symbols(*file, *dynamic);
    info.imported_symbols = std::move(symbols.imported);
    info.exported_symbols = std::move(symbols.exported);
    read_fatbin(*file, info);
    info.dlopen_candidates = find_dlopen_candidates(dlopen_search_area(*file));
    return info;
}

}  // namespace cuvet::elf
