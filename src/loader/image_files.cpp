#include "cuvet/loader/image_files.hpp"

namespace cuvet::loader {

const image::FileEntry* ImageFiles::data_entry(std::string_view path) const {
    if (tree == nullptr) return nullptr;
    auto resolved = tree->resolve(path);
    if (resolved.status != image::Resolution::Status::ok || resolved.entry == nullptr)
        return nullptr;
    const image::FileEntry* entry = resolved.entry;
    if (entry->type == image::FileType::hardlink) entry = tree->data_entry(*entry);
    if (entry == nullptr || entry->type != image::FileType::regular) return nullptr;
    return entry;
}

const elf::ElfInfo* ImageFiles::elf(std::string_view path) const {
    const auto* entry = data_entry(path);
    if (entry == nullptr || elfs == nullptr) return nullptr;
    auto it = elfs->find(entry->path);
    return it == elfs->end() ? nullptr : &it->second;
}

const std::string* ImageFiles::text(std::string_view path) const {
    const auto* entry = data_entry(path);
    if (entry == nullptr || texts == nullptr) return nullptr;
    auto it = texts->find(entry->path);
    return it == texts->end() ? nullptr : &it->second;
}

std::optional<std::string> ImageFiles::env_value(std::string_view key) const {
    // The last assignment wins, as in the container's environment.
    std::optional<std::string> value;
    for (const auto& item : env) {
        auto eq = item.find('=');
        if (eq != std::string::npos && std::string_view(item).substr(0, eq) == key)
            value = item.substr(eq + 1);
    }
    return value;
}

}  // namespace cuvet::loader
