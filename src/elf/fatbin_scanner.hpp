#pragma once
// Finds fatbin containers while a file streams by, so that the payloads (the
// GPU code: 55% of the bytes of a CUDA install) need not be kept at all.
//
// The scanner looks only at bytes the caller has already placed in the file's
// buffer, in file order; after each entry header it names the payload to skip.
// Skipped payloads become the file's holes: nothing on the scan path reads
// them, whether the file was streamed or handed over whole (elf::inspect runs
// the same scanner over whole files), so both give the same facts.
//
// A container counts when it is well formed (the rules of
// find_embedded_fatbins in fatbin.cpp): 8-byte aligned in the file, magic
// 0xBA55ED50, version 1, 16-byte header, entries that end exactly at its end.
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "elf/elf_file.hpp"

namespace cuvet::elf::detail {

struct ScannedContainer {
    std::uint64_t offset = 0, size = 0;      // header included
    std::vector<int> sass_archs, ptx_archs;  // distinct, in order of first entry
    std::size_t entries = 0;
    std::size_t containers = 1;  // more than one past max_containers (merged)
};

// The bytes the caller holds from `offset` on: everything after the last hole.
struct ScanWindow {
    std::string_view bytes;
    std::uint64_t offset = 0;  // file offset of bytes[0]
    std::uint64_t end() const { return offset + bytes.size(); }
};

struct FatbinScan {
    std::vector<ScannedContainer> containers;  // in file order
    std::vector<Range> holes;                  // sorted, disjoint
};

class FatbinScanner {
public:
    // Payloads smaller than this are kept: a hole costs a lookup on reads,
    // and small payloads are cheap to copy.
    static constexpr std::uint64_t min_hole = 4 * 1024;
    // What a scan holds is bounded whatever the file declares, and the same
    // for whole and streamed files: an entry header longer than this is not
    // one (real ones are 64-80 bytes; a stream holds the header until the
    // payload is named); a malformed container is searched again from at most
    // this far back; past this many containers each new one is merged into
    // the last (libcufft has 24k); at most this many distinct archs per
    // container (real ones list a few dozen).
    static constexpr std::uint64_t max_entry_header = 4096;
    static constexpr std::uint64_t max_rewind = 1 << 20;
    static constexpr std::size_t max_containers = 65536;
    static constexpr std::size_t max_archs = 256;

    // `keep_holes`: list the skipped payloads in finish()'s holes (a stream
    // keeps its own, merged, list).
    explicit FatbinScanner(std::uint64_t file_size, bool keep_holes = true)
        : file_size_(file_size), keep_holes_(keep_holes) {}

    // The file's bytes up to window.end() have arrived; the window starts at
    // or before the first byte not scanned yet (never inside a hole). Scans
    // what is new; returns the next range the caller may skip, if any.
    std::optional<Range> advance(ScanWindow window);
    // How far the caller should copy before calling advance() again: inside
    // a container, the end of the next entry header (so that the payload
    // after it is named before any of it is copied); elsewhere, no limit.
    std::uint64_t next_stop(ScanWindow window) const;
    // The first byte advance() may still look at: no payload named later
    // starts before it, so the bytes before it are settled and need not be kept.
    std::uint64_t settled() const;
    // The caller will not have the bytes of `gap` (a sparse tar hole, at or
    // after every byte scanned): it becomes a hole, a container open across
    // it does not count, and the search resumes after it.
    void skip_gap(Range gap);
    // End of file: a container still open was cut short and does not count.
    FatbinScan finish();

private:
    std::optional<Range> search(ScanWindow window);
    std::optional<Range> walk(ScanWindow window);
    void reject();
    void close_container();

    std::uint64_t file_size_;
    std::uint64_t position_ = 0;  // next byte to look at
    bool in_container_ = false;
    std::uint64_t last_container_end_ = UINT64_MAX;
    ScannedContainer current_;
    bool keep_holes_;
    std::uint64_t skips_ = 0, skips_before_current_ = 0;
    FatbinScan scan_;
};

}  // namespace cuvet::elf::detail
