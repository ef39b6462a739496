#pragma once
// Dynamic symbols: the names an object imports (undefined) and exports
// (defined, global or weak): the facts behind "file found, routine missing".
#include <string>
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

}  // namespace cuvet::elf::detail
