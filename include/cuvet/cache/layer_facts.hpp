#pragma once
// What one layer contributes to an analysis, without its bytes: the listing
// the merged tree is built from, and the facts of the files the scan selected
// (ELF facts, which selected files are not ELF, the small text files).
// Paths are as the layer's tar names them, before symlinked parents resolve.
#include <map>
#include <set>
#include <string>

#include "cuvet/elf/elf_info.hpp"
#include "cuvet/image/image.hpp"

namespace cuvet::cache {

struct LayerFacts {
    image::LayerListing listing;
    std::map<std::string, elf::ElfInfo, std::less<>> elfs;
    std::set<std::string, std::less<>> not_elf;
    std::map<std::string, std::string, std::less<>> texts;
};

}  // namespace cuvet::cache
