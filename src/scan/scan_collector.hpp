#pragma once
// Collects the facts of the files the single scan selects, from the worker
// threads that stream the layers: ELF facts (read while the file streams by,
// GPU code skipped), the bytes of small text files, and which selected files
// are not ELF. Facts are kept per layer (what the layer cache stores, and
// where it hands recalled layers back); finish() merges them bottom-up, the
// highest layer's copy of a path winning, and drops what the final tree does
// not hold.
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "cuvet/cache/layer_facts.hpp"
#include "cuvet/core/scratch_buffer.hpp"
#include "cuvet/image/image.hpp"
#include "cuvet/inventory/analysis.hpp"

namespace cuvet::scan {

class ScanCollector {
public:
    explicit ScanCollector(inventory::Analysis& analysis) : analysis_(analysis) {}

    // A sink for one selected file: `elf` when it may be a library or program,
    // `text` when its bytes are wanted whole (decided from the header alone).
    std::unique_ptr<image::ContentSink> open(const image::FileEntry& entry, bool elf, bool text);

    void record_elf(const image::FileEntry& entry, std::optional<elf::ElfInfo> info);
    void record_text(const image::FileEntry& entry, std::string bytes);
    void record_not_elf(const image::FileEntry& entry);

    // The facts recorded for one layer so far (its listing left empty); only
    // the worker reading that layer may use it, once the layer is read.
    cache::LayerFacts& layer(int index);
    // Facts of a layer that the cache recalled instead of reading it.
    void adopt(int index, cache::LayerFacts&& facts);

    // Once the tree is known: merge the layers and forget files it replaced or removed.
    void finish();

    // One scratch buffer per concurrently streamed ELF, reused across files.
    std::unique_ptr<ScratchBuffer> take_buffer();
    void give_buffer(std::unique_ptr<ScratchBuffer> buffer);

private:
    using LayerOf = std::map<std::string, int, std::less<>>;
    void merge_layers();
    void drop_stale();

    inventory::Analysis& analysis_;
    std::mutex mutex_;
    std::map<int, cache::LayerFacts> layers_;  // nodes never move: a worker may keep a reference
    LayerOf elf_layer_, text_layer_;
    std::vector<std::unique_ptr<ScratchBuffer>> buffers_;
};

}  // namespace cuvet::scan
