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
        auto entry = file.read<Verneed>(at);
        if (!entry) break;
        VersionNeed need;
        if (auto name = str(entry->file)) need.file = *name;
        std::uint64_t a = at + entry->aux;
        for (std::uint32_t j = 0; j < entry->cnt && aux_budget > 0; ++j, --aux_budget) {
            auto version = file.read<Vernaux>(a);
            if (!version) break;
            if (auto name = str(version->name)) need.versions.emplace_back(*name);
            if (version->next == 0) break;
            a += version->next;
        }
        needs.push_back(std::move(need));
        if (entry->next == 0) break;
        at += entry->next;
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
        auto entry = file.read<Verdef>(at);
        if (!entry) break;
        // The first auxiliary entry names the version; later ones name its parents.
        if (entry->cnt > 0) {
            if (auto first = file.read<Verdaux>(at + entry->aux)) {
                if (auto name = file.string_in(*chain->strtab, first->name))
                    names.emplace_back(*name);
            }
        }
        if (entry->next == 0) break;
        at += entry->next;
    }
    return names;
}

}  // namespace cuvet::elf::detail
