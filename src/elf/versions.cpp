#include "elf/versions.hpp"

namespace cuvet::elf::detail {
namespace {

// Where a version chain starts and how long it claims to be.
struct Chain {
    std::uint64_t offset = 0;
    std::uint64_t count = 0;
    std::optional<Range> strtab;
};

std::optional<Chain> locate(const ElfFile& file, const DynamicTable& dynamic,
                            std::uint32_t section_type, std::optional<std::uint64_t> address,
                            std::uint64_t count) {
    if (const Section* s = file.section_of_type(section_type)) {
        if (auto range = file.section_range(*s)) {
            return Chain{range->offset, s->info, linked_strtab(file, s, dynamic)};
        }
    }
    if (!address) return std::nullopt;
    auto offset = file.offset_of_address(*address);
    if (!offset) return std::nullopt;
    return Chain{*offset, count, dynamic.strtab};
}

}  // namespace

std::vector<VersionNeed> read_version_needs(const ElfFile& file, const DynamicTable& dynamic) {
    std::vector<VersionNeed> needs;
    auto chain = locate(file, dynamic, sht_gnu_verneed, dynamic.verneed, dynamic.verneednum);
    if (!chain || !chain->strtab) return needs;
    auto str = [&](std::uint64_t offset) { return file.string_in(*chain->strtab, offset); };

    std::size_t aux_budget = max_version_aux * 4;  // over all files, against cycles
    std::uint64_t at = chain->offset;
    for (std::uint64_t i = 0; i < chain->count && i < max_version_entries; ++i) {
        auto cnt = file.u16(at + 2);
        auto file_name = file.u32(at + 4), aux = file.u32(at + 8), next = file.u32(at + 12);
        if (!cnt || !file_name || !aux || !next) break;
        VersionNeed need;
        if (auto name = str(*file_name)) need.file = *name;
        std::uint64_t a = at + *aux;
        for (std::uint32_t j = 0; j < *cnt && aux_budget > 0; ++j, --aux_budget) {
            auto name_offset = file.u32(a + 8), aux_next = file.u32(a + 12);
            if (!name_offset || !aux_next) break;
            if (auto name = str(*name_offset)) need.versions.emplace_back(*name);
            if (*aux_next == 0) break;
            a += *aux_next;
        }
        needs.push_back(std::move(need));
        if (*next == 0) break;
        at += *next;
    }
    return needs;
}

std::vector<std::string> read_version_definitions(const ElfFile& file,
                                                  const DynamicTable& dynamic) {
    std::vector<std::string> names;
    auto chain = locate(file, dynamic, sht_gnu_verdef, dynamic.verdef, dynamic.verdefnum);
    if (!chain || !chain->strtab) return names;
    std::uint64_t at = chain->offset;
    for (std::uint64_t i = 0; i < chain->count && i < max_version_entries; ++i) {
        auto cnt = file.u16(at + 6);
        auto aux = file.u32(at + 12), next = file.u32(at + 16);
        if (!cnt || !aux || !next) break;
        // The first auxiliary entry names the version; later ones name its parents.
        if (*cnt > 0) {
            if (auto name_offset = file.u32(at + *aux)) {
                if (auto name = file.string_in(*chain->strtab, *name_offset)) {
                    names.emplace_back(*name);
                }
            }
        }
        if (*next == 0) break;
        at += *next;
    }
    return names;
}

}  // namespace cuvet::elf::detail
