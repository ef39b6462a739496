#include "cuvet/stack/stack.hpp"

namespace cuvet::stack {

std::string describe(const LibraryCopy& copy) {
    std::string out = copy.path + " (" + copy.family + " " +
                      (copy.version ? copy.version->str() : "unknown version");
    if (!copy.owner.empty()) out += ", " + copy.owner;
    return out + ")";
}

const LibraryCopy* Stack::library(std::string_view file) const {
    for (const auto& copy : libraries)
        if (copy.path == file) return &copy;
    return nullptr;
}

const elf::ElfInfo* Stack::elf(std::string_view file) const {
    if (elfs == nullptr) return nullptr;
    auto it = elfs->find(file);
    return it == elfs->end() ? nullptr : &it->second;
}

const std::string* Stack::root_of(std::string_view file) const {
    auto it = loaded_by.find(file);
    return it == loaded_by.end() ? nullptr : &it->second;
}

}  // namespace cuvet::stack
