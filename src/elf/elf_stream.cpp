#include "cuvet/elf/elf_stream.hpp"

#include <algorithm>
#include <cstring>

#include "cuvet/core/scan_limits.hpp"
#include "elf/fatbin_scanner.hpp"
#include "elf/inspect_scanned.hpp"

namespace cuvet::elf {

// The buffer holds the file with its holes cut out, so it stays as small as
// the file's non-GPU bytes and is rewritten from its start for every file
// (pages once touched are reused: no page faults after the first big file).
struct ElfStream::State {
    static constexpr std::uint64_t max_zero_fill = 64 * 1024;

    State(std::uint64_t size, ScratchBuffer& buffer) : buffer(buffer), scanner(size), size(size) {}

    ScratchBuffer& buffer;
    detail::FatbinScanner scanner;
    std::uint64_t size;            // announced; bytes past it are ignored
    std::uint64_t end = 0;         // file bytes [0, end) have arrived
    std::uint64_t kept = 0;        // bytes stored in the buffer
    std::uint64_t skip_until = 0;  // a payload being skipped ends here
    // The scanner's window: the stored bytes after the last hole.
    std::uint64_t window_offset = 0, window_stored = 0;

    detail::ScanWindow window() const {
        return {std::string_view(buffer.data() + window_stored, static_cast<std::size_t>(kept - window_stored)),
                window_offset};
    }

    void feed(const char* data, std::uint64_t length) {
        while (length > 0) {
            std::uint64_t n = length;
            if (end < skip_until) {
                n = std::min(n, skip_until - end);
                end += n;
                if (end == skip_until) start_window_at_end();
            } else {
                // Copy up to the scanner's next decision, so that it names a
                // payload before any of it is copied.
                const std::uint64_t stop = scanner.next_stop(window());
                if (stop > end) n = std::min(n, stop - end);
                // What is kept is bounded by what the limit allows, not by the
                // size the header declares (a zstd frame of zeros is cheap).
                check_limit(kept + n, scan_limits().file_bytes, "file-bytes",
                            "bytes of ELF data to hold in memory");
                buffer.reserve(static_cast<std::size_t>(kept + n));
                std::memcpy(buffer.data() + kept, data, static_cast<std::size_t>(n));
                kept += n;
                end += n;
                rescan();
            }
            data += n;
            length -= n;
        }
    }

    // A sparse entry's hole [end, offset): small ones read as the zeros they
    // are; larger ones are never materialised but cut out like skipped GPU
    // code, so a 64 GiB sparse file costs what its data blocks cost.
    void jump_to(std::uint64_t offset) {
        if (offset - end <= max_zero_fill) {
            static const std::string zeros(max_zero_fill, '\0');
            feed(zeros.data(), offset - end);
            return;
        }
        if (end < skip_until) {
            // Inside a payload being skipped anyway.
            const std::uint64_t step = std::min(offset, skip_until);
            end = step;
            if (end == skip_until) start_window_at_end();
            if (end == offset) return;
        }
        scanner.skip_gap(detail::Range{end, offset - end});
        end = skip_until = offset;
        start_window_at_end();
    }

    void start_window_at_end() {
        window_offset = end;
        window_stored = kept;
        rescan();
    }

    void rescan() {
        while (end >= skip_until) {
            auto skip = scanner.advance(window());
            if (!skip) return;
            skip_until = skip->offset + skip->size;
            if (end > skip->offset) {
                // Part of the payload is stored already (a container showed up
                // in the middle of a copy step): cut it out again, keeping
                // whatever came after it.
                const std::uint64_t stored_from = kept - (end - skip->offset);
                const std::uint64_t tail = end > skip_until ? end - skip_until : 0;
                if (tail > 0)
                    std::memmove(buffer.data() + stored_from, buffer.data() + kept - tail, static_cast<std::size_t>(tail));
                kept = stored_from + tail;
            }
            if (end >= skip_until) {
                // The hole is behind us already: the window restarts after it.
                window_offset = skip_until;
                window_stored = kept - (end - skip_until);
            }
        }
    }
};

ElfStream::ElfStream(std::uint64_t size, ScratchBuffer& buffer)
    : state_(std::make_unique<State>(size, buffer)) {}

ElfStream::~ElfStream() = default;

void ElfStream::write(std::string_view block, std::uint64_t offset) {
    State& s = *state_;
    offset = std::min(offset, s.size);
    if (s.end < offset) s.jump_to(offset);
    s.feed(block.data(), std::min<std::uint64_t>(block.size(), s.size - offset));
}

std::optional<ElfInfo> ElfStream::finish(std::string* why_not) {
    State& s = *state_;
    auto scan = s.scanner.finish();
    // A file cut short may end inside a hole: only what was skipped is cut out.
    while (!scan.holes.empty() && scan.holes.back().offset >= s.end) scan.holes.pop_back();
    if (!scan.holes.empty()) {
        auto& last = scan.holes.back();
        last.size = std::min(last.size, s.end - last.offset);
    }
    s.buffer.reserve(1);
    return detail::inspect_scanned(std::string_view(s.buffer.data(), static_cast<std::size_t>(s.kept)), scan, true,
                                   why_not);
}

}  // namespace cuvet::elf
