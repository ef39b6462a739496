#pragma once
// The one pass over an image that everything after it reads: the merged
// tree, ELF facts of every shared object, the bytes of the small files that
// carry versions, and the inventory built from them. `validate` runs exactly
// this once, so it costs about what `cuvet files` costs.
#include <cstddef>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cuvet/cache/shared_facts.hpp"
#include "cuvet/cache/store.hpp"
#include "cuvet/elf/elf_info.hpp"
#include "cuvet/image/image.hpp"
#include "cuvet/inventory/inventory.hpp"
#include "cuvet/loader/image_files.hpp"

namespace cuvet::inventory {

struct AnalyzeOptions {
    std::vector<std::string> extra_elf_paths;  // also inspect these (an executable for ldd)
    std::vector<std::string> extra_exec_dirs;  // and the executables directly in these
    unsigned workers = 0;                      // 0: one per core
    std::function<void(std::size_t, std::size_t)> on_progress;
    // Layers seen before come from here instead of being read; null: no cache.
    cache::Store* layer_cache = nullptr;
    // Behind it, a fact store shared by a fleet's workers; null: none.
    cache::SharedFacts* shared_facts = nullptr;
};

struct Analysis {
    image::ImageInfo info;
    image::FileTree tree;
    std::map<std::string, elf::ElfInfo, std::less<>> elfs;  // by data path
    std::set<std::string, std::less<>> not_elf;             // selected, not valid ELF
    std::map<std::string, std::string, std::less<>> texts;  // small files, by path
    Inventory inventory;

    loader::ImageFiles files() const;  // the view the loader reads
};

// Which files the single scan reads, decided from the header alone.
bool wants_text(const image::FileEntry& entry);
bool wants_elf(const image::FileEntry& entry);

Analysis analyze(const image::Image& image, const AnalyzeOptions& options = {});

// The inventory of an already scanned image (analyze calls this last).
Inventory build_inventory(const Analysis& analysis);

}  // namespace cuvet::inventory
