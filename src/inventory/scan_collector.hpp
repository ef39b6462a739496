#pragma once
// Collects the facts of the files the single scan selects, from the worker
// threads that stream the layers: ELF facts (read while the file streams by,
// GPU code skipped), the bytes of small text files, and which selected files
// are not ELF. Files of lower layers that a later layer replaces are visited
// too: the highest layer's copy wins, and drop_stale() removes what the final
// tree does not hold.
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "cuvet/core/scratch_buffer.hpp"
#include "cuvet/image/image.hpp"
#include "cuvet/inventory/analysis.hpp"

namespace cuvet::inventory::detail {

class ScanCollector {
public:
    explicit ScanCollector(Analysis& analysis) : analysis_(analysis) {}

    // A sink for one selected file: `elf` when it may be a library or program,
    // `text` when its bytes are wanted whole (decided from the header alone).
    std::unique_ptr<image::ContentSink> open(const image::FileEntry& entry, bool elf, bool text);

    void record_elf(const image::FileEntry& entry, std::optional<elf::ElfInfo> info);
    void record_text(const image::FileEntry& entry, std::string bytes);
    void record_not_elf(const image::FileEntry& entry);

    // Once the tree is known: forget files it replaced or removed.
    void drop_stale();

    // One scratch buffer per concurrently streamed ELF, reused across files.
    std::unique_ptr<ScratchBuffer> take_buffer();
    void give_buffer(std::unique_ptr<ScratchBuffer> buffer);

private:
    using LayerOf = std::map<std::string, int, std::less<>>;
    // True when `entry` is the highest copy of its path seen so far.
    bool claim(LayerOf& layers, const image::FileEntry& entry);

    Analysis& analysis_;
    std::mutex mutex_;
    LayerOf elf_layer_, text_layer_;
    std::vector<std::unique_ptr<ScratchBuffer>> buffers_;
};

}  // namespace cuvet::inventory::detail
