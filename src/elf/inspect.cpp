// elf::inspect: every fact of ElfInfo from one pass of cheap, bounded reads.
#include <algorithm>
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

// Sections where CUDA libraries keep fatbins besides .nv_fatbin; only these
// are searched, so the cost stays bounded by what such libraries carry.
constexpr std::string_view embedded_fatbin_sections[] = {".ldata", ".cask_resource"};

void add_source(ElfInfo& info, std::string_view section, const FatbinSummary& summary) {
    if (summary.containers == 0) return;
    info.has_fatbin = true;
    info.fatbin_sources.push_back(
        {std::string(section), summary.sass_archs, summary.ptx_archs, summary.containers});
    info.sass_archs.insert(info.sass_archs.end(), summary.sass_archs.begin(), summary.sass_archs.end());
    info.ptx_archs.insert(info.ptx_archs.end(), summary.ptx_archs.begin(), summary.ptx_archs.end());
}

void sort_unique(std::vector<int>& values) {
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
}

void read_fatbins(const ElfFile& file, ElfInfo& info) {
    if (const detail::Section* section = file.section_named(".nv_fatbin")) {
        if (auto range = file.section_range(*section)) {
            // An empty or unparsable .nv_fatbin still says "this is CUDA code".
            info.has_fatbin = true;
            add_source(info, ".nv_fatbin",
                       parse_fatbin(file.bytes().substr(range->offset, range->size)));
        }
    }
    for (std::string_view name : embedded_fatbin_sections) {
        const detail::Section* section = file.section_named(name);
        if (!section) continue;
        if (auto range = file.section_range(*section)) {
            add_source(info, name,
                       find_embedded_fatbins(file.bytes().substr(range->offset, range->size),
                                             range->offset));
        }
    }
    sort_unique(info.sass_archs);
    sort_unique(info.ptx_archs);
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
    read_fatbins(*file, info);
    info.dlopen_candidates = find_dlopen_candidates(dlopen_search_area(*file));
    return info;
}

}  // namespace cuvet::elf
