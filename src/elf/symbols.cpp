#include "elf/symbols.hpp"

#include <algorithm>

#include "cuvet/core/scan_limits.hpp"

namespace cuvet::elf::detail {
namespace {

constexpr std::uint8_t stb_global = 1, stb_weak = 2, stb_gnu_unique = 10;

struct SymbolTable {
    Range range;
    std::uint64_t entsize = 0;
    std::optional<Range> strtab;
};

// DT_HASH stores the symbol count outright (nchain).
std::optional<std::uint64_t> count_from_sysv_hash(const ElfFile& file, std::uint64_t address) {
    auto offset = file.offset_of_address(address);
    if (!offset) return std::nullopt;
    const auto header = file.read<SysvHashHeader>(*offset);
    if (!header) return std::nullopt;
    return std::uint32_t{header->nchain};
}

// DT_GNU_HASH does not: the count is one past the last symbol of the longest
// chain, found from the highest bucket. Every step stays inside the file.
std::optional<std::uint64_t> count_from_gnu_hash(const ElfFile& file, std::uint64_t address) {
    auto offset = file.offset_of_address(address);
    if (!offset) return std::nullopt;
    const auto header = file.read<GnuHashHeader>(*offset);
    if (!header) return std::nullopt;
    const std::uint32_t nbuckets = header->nbuckets, symoffset = header->symoffset;
    const std::uint64_t buckets = *offset + sizeof(GnuHashHeader) +
                                  std::uint64_t{header->bloom_size} * (file.is_64bit() ? 8 : 4);
    if (!file.readable(buckets, std::uint64_t{nbuckets} * 4)) return std::nullopt;
    std::uint32_t last = 0;
    for (std::uint32_t i = 0; i < nbuckets; ++i)
        last = std::max(last, *file.u32(buckets + 4ull * i));
    if (last < symoffset) return symoffset;
    const std::uint64_t chains = buckets + std::uint64_t{nbuckets} * 4;
    for (std::uint64_t index = last;; ++index) {
        auto value = file.u32(chains + 4 * (index - symoffset));
        if (!value) return std::nullopt;
        if (*value & 1) return index + 1;
    }
}

// The fields of a symbol the facts need; the table was checked readable and
// entries are at least a symbol's size apart.
struct SymbolFields {
    std::uint32_t name;
    std::uint8_t info;
    std::uint16_t shndx;
};

template <class E>
SymbolFields symbol_at(const ElfFile& file, std::uint64_t at) {
    const auto symbol = *file.read<typename E::Sym>(at);
    return {symbol.name, symbol.info, symbol.shndx};
}

std::optional<SymbolTable> locate(const ElfFile& file, const DynamicTable& dynamic) {
    const std::uint64_t min_entsize = file.is_64bit() ? sizeof(Elf64Sym) : sizeof(Elf32Sym);
    if (const Section* s = file.section_of_type(sht_dynsym)) {
        if (auto range = file.section_range(*s)) {
            return SymbolTable{*range, std::max(s->entsize, min_entsize),
                               linked_strtab(file, s, dynamic)};
        }
    }
    if (!dynamic.symtab) return std::nullopt;
    auto range = file.range_at_address(*dynamic.symtab);
    if (!range) return std::nullopt;
    const std::uint64_t entsize = std::max(dynamic.syment, min_entsize);
    std::optional<std::uint64_t> count;
    if (dynamic.hash) count = count_from_sysv_hash(file, *dynamic.hash);
    if (!count && dynamic.gnu_hash) count = count_from_gnu_hash(file, *dynamic.gnu_hash);
    if (!count) return std::nullopt;
    range->size = std::min(range->size, *count * entsize);
    return SymbolTable{*range, entsize, dynamic.strtab};
}

// Sorting views and copying each distinct name once avoids moving strings
// while sorting. Even so, C++ libraries are the expensive case of inspect():
// libtorch_cpu.so exports 78k mangled names (about 3 MB of names to copy).
std::vector<std::string> sorted_unique(std::vector<std::string_view>& views) {
    std::sort(views.begin(), views.end());
    views.erase(std::unique(views.begin(), views.end()), views.end());
    return std::vector<std::string>(views.begin(), views.end());
}

}  // namespace

SymbolNames read_dynamic_symbols(const ElfFile& file, const DynamicTable& dynamic) {
    SymbolNames names;
    auto table = locate(file, dynamic);
    if (!table || !table->strtab) return names;
    if (!file.readable(table->range.offset, table->range.size)) return names;
    const std::uint64_t count = table->range.size / table->entsize;
    // Names may repeat (every entry may point at the same long string), so
    // their bytes are counted as well as the entries: sorting costs both.
    const ScanLimits& limits = scan_limits();
    check_limit(count, limits.symbols, "symbols", "dynamic symbols");
    std::uint64_t name_bytes = 0;
    std::vector<std::string_view> imported, exported, weak_imported;
    // Index 0 is the reserved null symbol.
    for (std::uint64_t i = 1; i < count; ++i) {
        const std::uint64_t at = table->range.offset + i * table->entsize;
        const auto [name_offset, info, shndx] =
            file.is_64bit() ? symbol_at<Elf64>(file, at) : symbol_at<Elf32>(file, at);
        auto name = file.string_in(*table->strtab, name_offset);
        if (!name || name->empty()) continue;
        name_bytes += name->size();
        check_limit(name_bytes, limits.symbol_bytes, "symbol-bytes",
                    "bytes of dynamic symbol names");
        const std::uint8_t binding = info >> 4;
        if (shndx == 0) {
            imported.push_back(*name);
            if (binding == stb_weak) weak_imported.push_back(*name);
        } else if (binding == stb_global || binding == stb_weak || binding == stb_gnu_unique) {
            exported.push_back(*name);
        }
    }
    names.imported = sorted_unique(imported);
    names.exported = sorted_unique(exported);
    names.weak_imported = sorted_unique(weak_imported);
    return names;
}

std::optional<std::uint32_t> exported_u32(const ElfFile& file, const DynamicTable& dynamic,
                                          std::string_view name) {
    auto table = locate(file, dynamic);
    if (!table || !table->strtab || !file.held(table->range.offset, table->range.size))
        return std::nullopt;
    const std::uint64_t count = table->range.size / table->entsize;
    for (std::uint64_t i = 1; i < count; ++i) {
        const std::uint64_t at = table->range.offset + i * table->entsize;
        const auto [name_offset, info, shndx] =
            file.is_64bit() ? symbol_at<Elf64>(file, at) : symbol_at<Elf32>(file, at);
        if (shndx == 0 || file.string_in(*table->strtab, name_offset) != name) continue;
        std::uint64_t value = 0, size = 0;
        if (file.is_64bit()) {
            const auto symbol = *file.read<Elf64Sym>(at);
            value = symbol.value, size = symbol.size;
        } else {
            const auto symbol = *file.read<Elf32Sym>(at);
            value = symbol.value, size = symbol.size;
        }
        const auto offset = file.offset_of_address(value);
        if (size != 4 || !offset || !file.held(*offset, 4)) return std::nullopt;
        return file.u32(*offset);
    }
    return std::nullopt;
}

}  // namespace cuvet::elf::detail
