#pragma once
// What the loader emulation reads from an image: the merged tree, the ELF
// facts and small file bytes the single scan kept (inventory::analyze fills
// these), and the config Env. Everything is borrowed; the caller owns it.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "cuvet/elf/elf_info.hpp"
#include "cuvet/image/file_tree.hpp"

namespace cuvet::loader {

struct ImageFiles {
    const image::FileTree* tree = nullptr;
    // Facts of the ELF files the scan read, by data path (links followed).
    const std::map<std::string, elf::ElfInfo, std::less<>>* elfs = nullptr;
    // Files the scan read that are not valid ELF, by data path.
    const std::set<std::string, std::less<>>* not_elf = nullptr;
    // Bytes of small files the scan kept (ld.so.cache, ld.so.conf…), by data path.
    const std::map<std::string, std::string, std::less<>>* texts = nullptr;
    std::vector<std::string> env;  // "KEY=value" from the image config

    // The entry holding the data `path` names after symlinks and hard links,
    // or nullptr when it does not resolve to a regular file.
    const image::FileEntry* data_entry(std::string_view path) const;
    const elf::ElfInfo* elf(std::string_view path) const;
    const std::string* text(std::string_view path) const;
    std::optional<std::string> env_value(std::string_view key) const;
};

}  // namespace cuvet::loader
