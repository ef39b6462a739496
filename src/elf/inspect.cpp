// elf::inspect: every fact of ElfInfo from one pass of cheap, bounded reads.
#include <algorithm>
#include <string>

#include "cuvet/core/sort_unique.hpp"
#include "cuvet/elf/dlopen_strings.hpp"
#include "cuvet/elf/elf_info.hpp"
#include "cuvet/elf/tool_release.hpp"
#include "elf/dynamic.hpp"
#include "elf/elf_file.hpp"
#include "elf/inspect_scanned.hpp"
#include "elf/symbols.hpp"
#include "elf/versions.hpp"

namespace cuvet::elf {
namespace {

using detail::ElfFile;
using detail::FatbinScan;
using detail::Range;

// Where library names for dlopen live: .rodata when the file has section
// headers, the whole file otherwise (a stripped-section file still works).
std::optional<Range> dlopen_search_area(const ElfFile& file) {
    if (file.sections().empty()) return Range{0, file.size()};
    const detail::Section* rodata = file.section_named(detail::rodata_section);
    if (!rodata) return std::nullopt;
    return file.section_range(*rodata);
}

// Calls `read` with each stored piece of `area`, around the holes (skipped
// GPU code), until it returns false.
template <class Read>
void for_each_piece(const ElfFile& file, Range area, const FatbinScan& scan, Read read) {
    auto piece = [&](std::uint64_t from, std::uint64_t to) {
        return from >= to || read(file.span(Range{from, to - from}));
    };
    std::uint64_t at = area.offset;
    const std::uint64_t end = area.offset + area.size;
    for (const Range& hole : scan.holes) {
        if (hole.offset + hole.size <= at) continue;
        if (hole.offset >= end) break;
        if (!piece(at, hole.offset)) return;
        at = hole.offset + hole.size;
    }
    piece(at, end);
}

// cuDNN 9's libcudnn_ops and libcudnn_adv (and libcudnn_graph) export their release for the
// sub-libraries that check it (libcudnn_cnn imports cudnn_ops_infer_version, libcudnn_ops
// cudnn_graph_version) as a 4-byte constant packed 0x00MMmmpp: 0x091300 in 9.19.0. Their file
// names in a wheel say only "9", so this is the release the library itself states. Read only
// when the packed major is the soname's, so another packing (or major) stays unknown.
std::string exported_cudnn_release(const ElfFile& file, const detail::DynamicTable& dynamic,
                                   const ElfInfo& info) {
    const auto dot = info.soname.rfind(".so.");
    if (dot == std::string::npos) return "";
    const std::string major = info.soname.substr(dot + 4);
    for (const auto& name : info.exported_symbols) {
        if (!name.starts_with("cudnn_") || !name.ends_with("_version")) continue;
        const auto value = detail::exported_u32(file, dynamic, name);
        if (!value || (*value >> 24) != 0 || std::to_string(*value >> 16) != major) continue;
        return major + "." + std::to_string((*value >> 8) & 0xff) + "." +
               std::to_string(*value & 0xff);
    }
    return "";
}

std::vector<std::string> dlopen_candidates(const ElfFile& file, Range area,
                                           const FatbinScan& scan) {
    std::vector<std::string> names;
    for_each_piece(file, area, scan, [&](std::string_view bytes) {
        for (auto& name : find_dlopen_candidates(bytes)) {
            if (names.size() >= max_dlopen_candidates) return false;
            if (std::find(names.begin(), names.end(), name) == names.end())
                names.push_back(std::move(name));
        }
        return true;
    });
    return names;
}

bool inside(const detail::Unkept::Hit& hit, Range area) {
    return hit.offset >= area.offset && hit.size <= area.size &&
           hit.offset - area.offset <= area.size - hit.size;
}

std::vector<std::string> dlopen_candidates(Range area, const detail::Unkept& unkept) {
    std::vector<std::string> names;
    for (const auto& hit : unkept.dlopen) {
        if (names.size() >= max_dlopen_candidates) break;
        if (inside(hit, area) && std::find(names.begin(), names.end(), hit.text) == names.end())
            names.push_back(hit.text);
    }
    return names;
}

// The first release a stream recorded inside `area`, read from the bytes
// that lie inside it, as the search of the area's stored pieces reads it.
std::string first_release(Range area, const std::vector<detail::Unkept::Hit>& releases,
                          std::string (*read_at)(std::string_view)) {
    for (const auto& hit : releases) {
        if (hit.offset < area.offset || hit.offset - area.offset >= area.size) continue;
        const std::uint64_t room = area.size - (hit.offset - area.offset);
        std::string release =
            read_at(std::string_view(hit.text).substr(0, static_cast<std::size_t>(room)));
        if (!release.empty()) return release;
    }
    return "";
}

// The first release `find` reads in a stored piece of `area` (compiler banner, cuDNN constant).
std::string first_release(const ElfFile& file, Range area, const FatbinScan& scan,
                          std::string (*find)(std::string_view)) {
    std::string release;
    for_each_piece(file, area, scan, [&](std::string_view bytes) {
        release = find(bytes);
        return release.empty();
    });
    return release;
}

void read_fatbins(const ElfFile& file, const FatbinScan& scan, ElfInfo& info) {
    for (std::string_view name : detail::fatbin_sections) {
        const detail::Section* section = file.section_named(name);
        if (!section) continue;
        auto range = file.section_range(*section);
        if (!range) continue;
        // An empty or unparsable .nv_fatbin still says "this is CUDA code".
        if (name == ".nv_fatbin") info.has_fatbin = true;
        ElfInfo::FatbinSource source{std::string(name), {}, {}, 0};
        for (const auto& container : scan.containers) {
            if (container.offset < range->offset ||
                container.offset + container.size > range->offset + range->size) {
                continue;
            }
            source.containers += container.containers;
            source.sass_archs.insert(source.sass_archs.end(), container.sass_archs.begin(),
                                     container.sass_archs.end());
            source.ptx_archs.insert(source.ptx_archs.end(), container.ptx_archs.begin(),
                                    container.ptx_archs.end());
        }
        if (source.containers == 0) continue;
        sort_unique(source.sass_archs);
        sort_unique(source.ptx_archs);
        info.has_fatbin = true;
        info.sass_archs.insert(info.sass_archs.end(), source.sass_archs.begin(),
                               source.sass_archs.end());
        info.ptx_archs.insert(info.ptx_archs.end(), source.ptx_archs.begin(),
                              source.ptx_archs.end());
        info.fatbin_sources.push_back(std::move(source));
    }
    sort_unique(info.sass_archs);
    sort_unique(info.ptx_archs);
}

}  // namespace

namespace detail {

FatbinScan scan_whole_file(std::string_view bytes) {
    FatbinScanner scanner(bytes.size());
    // Whole files have every byte: a skip only moves the scanner on.
    while (scanner.advance(ScanWindow{bytes, 0})) {
    }
    return scanner.finish();
}

std::optional<ElfInfo> inspect_scanned(std::string_view stored, const FatbinScan& scan,
                                       bool cut_out, std::string* why_not, const Unkept* unkept) {
    bool read_unkept = false;
    auto fail_closed = [&] {
        if (read_unkept) throw UnkeptRead{};
    };
    auto file = ElfFile::open(stored, why_not,
                              Holes{&scan.holes, cut_out, unkept ? &unkept->section_names : nullptr,
                                    unkept ? &unkept->ranges : nullptr, &read_unkept});
    fail_closed();
    if (!file) return std::nullopt;
    auto dynamic = read_dynamic(*file, why_not);
    fail_closed();
    if (!dynamic) return std::nullopt;

    ElfInfo info;
    info.is_64bit = file->is_64bit();
    info.machine = file->machine();
    info.type = file->type();
    if (dynamic->soname) info.soname = *dynamic->soname;
    info.needed.assign(dynamic->needed.begin(), dynamic->needed.end());
    if (dynamic->rpath) {
        info.has_rpath = true;
        info.rpath = split_search_path(*dynamic->rpath);
    }
    if (dynamic->runpath) {
        info.has_runpath = true;
        info.runpath = split_search_path(*dynamic->runpath);
    }
    info.version_needs = read_version_needs(*file, *dynamic);
    info.version_definitions = read_version_definitions(*file, *dynamic);
    auto symbols = read_dynamic_symbols(*file, *dynamic);
    info.imported_symbols = std::move(symbols.imported);
    info.exported_symbols = std::move(symbols.exported);
    info.weak_imported_symbols = std::move(symbols.weak_imported);
    read_fatbins(*file, scan, info);
    if (auto area = dlopen_search_area(*file)) {
        info.dlopen_candidates =
            unkept ? dlopen_candidates(*area, *unkept) : dlopen_candidates(*file, *area, scan);
        // Programs only (libraries have a soname): the compilers Triton and XLA run.
        if (info.soname.empty())
            info.cuda_tools_release =
                unkept ? first_release(*area, unkept->releases, cuda_tools_release_at)
                       : first_release(*file, *area, scan, find_cuda_tools_release);
        // cuDNN 9 names only its major in file names; its graph library states the rest.
        if (info.soname.rfind("libcudnn", 0) == 0)
            info.cudnn_release =
                unkept ? first_release(*area, unkept->cudnn_releases, cudnn_release_at)
                       : first_release(*file, *area, scan, find_cudnn_release);
    }
    if (info.cudnn_release.empty() && info.soname.rfind("libcudnn", 0) == 0)
        info.cudnn_release = exported_cudnn_release(*file, *dynamic, info);
    fail_closed();
    return info;
}

}  // namespace detail

std::optional<ElfInfo> inspect(std::string_view bytes, std::string* why_not) {
    if (!looks_like_elf(bytes)) {
        if (why_not) *why_not = "not an ELF file (bad magic)";
        return std::nullopt;
    }
    return detail::inspect_scanned(bytes, detail::scan_whole_file(bytes), false, why_not);
}

}  // namespace cuvet::elf
