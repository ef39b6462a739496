#pragma once
// Dynamic symbols: the names an object imports (undefined) and exports
// (defined, global or weak): the facts behind "file found, routine missing".
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "elf/dynamic.hpp"
#include "elf/elf_file.hpp"

namespace cuvet::elf::detail {

struct SymbolNames {
    std::vector<std::string> imported;       // sorted, unique
    std::vector<std::string> exported;       // sorted, unique
    std::vector<std::string> weak_imported;  // the imported ones bound weakly (may stay unresolved)
};

SymbolNames read_dynamic_symbols(const ElfFile& file, const DynamicTable& dynamic);

// The 4-byte value a defined data symbol `name` holds in the file (a release constant a
// library exports for its peers to check). nullopt when there is no such symbol, it is of
// another size, or its bytes are not held: an optional fact, never a reason to fail the file.
std::optional<std::uint32_t> exported_u32(const ElfFile& file, const DynamicTable& dynamic,
                                          std::string_view name);

}  // namespace cuvet::elf::detail
