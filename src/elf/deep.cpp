// LIEF as the reference reader (see include/cuvet/elf/deep.hpp).
#include "cuvet/elf/deep.hpp"

#include <LIEF/ELF.hpp>
#include <LIEF/logging.hpp>
#include <algorithm>
#include <exception>

#include "cuvet/core/sort_unique.hpp"
#include "elf/dynamic.hpp"

namespace cuvet::elf {
namespace {

namespace L = LIEF::ELF;

std::string strip_prefix(std::string name, std::string_view prefix) {
    if (name.rfind(prefix, 0) == 0) name.erase(0, prefix.size());
    return name;
}

std::string segment_flags(const L::Segment& segment) {
    std::string flags = "---";
    if (segment.has(L::ELF_SEGMENT_FLAGS::PF_R)) flags[0] = 'r';
    if (segment.has(L::ELF_SEGMENT_FLAGS::PF_W)) flags[1] = 'w';
    if (segment.has(L::ELF_SEGMENT_FLAGS::PF_X)) flags[2] = 'x';
    return flags;
}

// ld.so keeps the last entry of a tag; inspect() does the same.
void read_dynamic_entries(const L::Binary& binary, ElfInfo& facts) {
    for (const L::DynamicEntry& entry : binary.dynamic_entries()) {
        switch (entry.tag()) {
            case L::DYNAMIC_TAGS::DT_NEEDED:
                facts.needed.push_back(static_cast<const L::DynamicEntryLibrary&>(entry).name());
                break;
            case L::DYNAMIC_TAGS::DT_SONAME:
                facts.soname = static_cast<const L::DynamicSharedObject&>(entry).name();
                break;
            case L::DYNAMIC_TAGS::DT_RPATH:
                facts.has_rpath = true;
                facts.rpath = detail::split_search_path(
                    static_cast<const L::DynamicEntryRpath&>(entry).name());
                break;
            case L::DYNAMIC_TAGS::DT_RUNPATH:
                facts.has_runpath = true;
                facts.runpath = detail::split_search_path(
                    static_cast<const L::DynamicEntryRunPath&>(entry).name());
                break;
            default:
                break;
        }
    }
}

void read_versions(const L::Binary& binary, ElfInfo& facts) {
    for (const L::SymbolVersionRequirement& need : binary.symbols_version_requirement()) {
        VersionNeed out;
        out.file = need.name();
        for (const L::SymbolVersionAuxRequirement& aux : need.auxiliary_symbols()) {
            out.versions.push_back(aux.name());
        }
        facts.version_needs.push_back(std::move(out));
    }
    for (const L::SymbolVersionDefinition& def : binary.symbols_version_definition()) {
        auto aux = def.symbols_aux();
        if (aux.size() > 0) facts.version_definitions.push_back((*aux.begin()).name());
    }
}

void read_symbols(const L::Binary& binary, ElfInfo& facts) {
    for (const L::Symbol& symbol : binary.dynamic_symbols()) {
        if (symbol.name().empty()) continue;
        const auto binding = symbol.binding();
        if (symbol.shndx() == 0) {
            facts.imported_symbols.push_back(symbol.name());
        } else if (binding == L::SYMBOL_BINDINGS::STB_GLOBAL ||
                   binding == L::SYMBOL_BINDINGS::STB_WEAK ||
                   binding == L::SYMBOL_BINDINGS::STB_GNU_UNIQUE) {
            facts.exported_symbols.push_back(symbol.name());
        }
    }
    sort_unique(facts.imported_symbols);
    sort_unique(facts.exported_symbols);
}

DeepView view_of(const L::Binary& binary) {
    DeepView view;
    const L::Header& header = binary.header();
    view.elf_class = header.identity_class() == L::ELF_CLASS::ELFCLASS64 ? "ELF64" : "ELF32";
    view.file_type = strip_prefix(L::to_string(header.file_type()), "ET_");
    view.machine = strip_prefix(L::to_string(header.machine_type()), "EM_");
    view.entrypoint = header.entrypoint();
    if (binary.has_interpreter()) view.interpreter = binary.interpreter();
    for (const L::Section& section : binary.sections()) {
        view.sections.push_back({section.name(), strip_prefix(L::to_string(section.type()), "SHT_"),
                                 section.virtual_address(), section.file_offset(), section.size()});
    }
    for (const L::Segment& segment : binary.segments()) {
        view.segments.push_back({strip_prefix(L::to_string(segment.type()), "PT_"),
                                 segment_flags(segment), segment.file_offset(),
                                 segment.virtual_address(), segment.physical_size(),
                                 segment.virtual_size()});
    }
    view.dynamic_symbols = binary.dynamic_symbols().size();
    view.static_symbols = binary.static_symbols().size();
    view.relocations = binary.relocations().size();

    ElfInfo& facts = view.facts;
    facts.is_64bit = header.identity_class() == L::ELF_CLASS::ELFCLASS64;
    facts.machine = static_cast<std::uint16_t>(header.machine_type());
    facts.type = static_cast<std::uint16_t>(header.file_type());
    read_dynamic_entries(binary, facts);
    read_versions(binary, facts);
    read_symbols(binary, facts);
    return view;
}

template <typename Parse>
std::optional<DeepView> run_lief(Parse parse, std::string* why_not) {
    // LIEF logs its own complaints to stderr; ours go through why_not.
    LIEF::Logger::disable();
    try {
        std::unique_ptr<L::Binary> binary = parse();
        if (!binary) {
            if (why_not) *why_not = "LIEF could not parse the file";
            return std::nullopt;
        }
        return view_of(*binary);
    } catch (const std::exception& e) {
        if (why_not) *why_not = std::string("LIEF: ") + e.what();
        return std::nullopt;
    }
}

}  // namespace

std::optional<DeepView> deep_inspect(const std::filesystem::path& path, std::string* why_not) {
    return run_lief([&] { return L::Parser::parse(path.string()); }, why_not);
}

std::optional<DeepView> deep_inspect_bytes(std::string_view bytes, std::string* why_not) {
    return run_lief(
        [&] {
            std::vector<std::uint8_t> copy(bytes.begin(), bytes.end());
            return L::Parser::parse(copy);
        },
        why_not);
}

}  // namespace cuvet::elf
