#pragma once
// The "deep" view of an ELF file, from LIEF: every section and segment, and
// LIEF's own reading of the facts elf::inspect extracts. It is the reference
// for the differential test and the `cuvet elf --deep` output; it is far too
// slow for the scan path (Debian's LIEF 0.9 needs 8 s and 1.2 GB for a 541 MB
// libcublasLt), which is why inspect() exists.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cuvet/elf/elf_info.hpp"

namespace cuvet::elf {

struct DeepSection {
    std::string name;
    std::string type;  // "PROGBITS", "DYNSYM", … (LIEF's names, without SHT_)
    std::uint64_t address = 0, offset = 0, size = 0;
};

struct DeepSegment {
    std::string type;   // "LOAD", "DYNAMIC", …
    std::string flags;  // "r-x"
    std::uint64_t offset = 0, address = 0, file_size = 0, memory_size = 0;
};

struct DeepView {
    std::string elf_class;  // "ELF64"
    std::string file_type;  // "DYN", "EXEC"
    std::string machine;    // LIEF's name ("x86_64")
    std::uint64_t entrypoint = 0;
    std::string interpreter;
    std::vector<DeepSection> sections;
    std::vector<DeepSegment> segments;
    std::size_t dynamic_symbols = 0, static_symbols = 0, relocations = 0;
    // LIEF's view of the fields both readers expose: class, machine, type,
    // soname, needed, rpath/runpath, version needs/definitions, imported and
    // exported dynamic symbols (same rule as inspect: undefined / defined
    // global-weak-unique). Fatbin archs and dlopen names are not LIEF facts.
    ElfInfo facts;
};

// Parses with LIEF. Throws nothing; nullopt (and a reason) when LIEF refuses.
std::optional<DeepView> deep_inspect(const std::filesystem::path& path,
                                     std::string* why_not = nullptr);
// Same, from bytes (LIEF wants its own copy of them).
std::optional<DeepView> deep_inspect_bytes(std::string_view bytes, std::string* why_not = nullptr);

}  // namespace cuvet::elf
