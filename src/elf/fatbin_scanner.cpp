#include "elf/fatbin_scanner.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace cuvet::elf::detail {
namespace {

constexpr std::uint32_t container_magic = 0xBA55ED50;
constexpr std::uint64_t container_header_size = 16;
constexpr std::uint64_t min_entry_header = 32;  // through `arch` (layout: fatbin.cpp)
constexpr std::uint64_t entry_sizes_end = 16;   // header_size and payload_size are read first
constexpr std::uint64_t search_step = 64 * 1024;

// A little-endian load at file offset `at` (inside the window).
template <typename T>
T load_le(const ScanWindow& window, std::uint64_t at) {
    const char* p = window.bytes.data() + (at - window.offset);
    T value = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i)
        value |= static_cast<T>(static_cast<unsigned char>(p[i])) << (8 * i);
    return value;
}

bool is_sass_kind(std::uint16_t kind) { return kind == 2 || kind == 4 || kind == 0x10; }

void add_arch(std::vector<int>& archs, int arch) {
    if (archs.size() < FatbinScanner::max_archs &&
        std::find(archs.begin(), archs.end(), arch) == archs.end())
        archs.push_back(arch);
}

std::uint64_t back_off(std::uint64_t position, std::uint64_t distance) {
    return position > distance ? position - distance : 0;
}

}  // namespace

std::optional<Range> FatbinScanner::advance(ScanWindow window) {
    while (true) {
        const std::uint64_t before = position_;
        const bool was_in_container = in_container_;
        auto skip = in_container_ ? walk(window) : search(window);
        if (skip) return skip;
        // Stop when no progress was possible: more bytes are needed.
        if (position_ == before && in_container_ == was_in_container) return std::nullopt;
    }
}

std::optional<Range> FatbinScanner::search(ScanWindow window) {
    const std::uint64_t available = window.end();
    // memchr for the magic's last byte runs at memory speed; each hit is then
    // checked for alignment and the whole header.
    while (position_ + container_header_size <= available) {
        const char* from = window.bytes.data() + (position_ + 3 - window.offset);
        const void* hit = std::memchr(from, '\xBA', available - position_ - 3);
        if (!hit) {
            // The last 3 bytes may start a magic that is not complete yet.
            position_ = available - 3;
            return std::nullopt;
        }
        const std::uint64_t at =
            position_ + static_cast<std::uint64_t>(static_cast<const char*>(hit) - from);
        if (at % 8 != 0 || load_le<std::uint32_t>(window, at) != container_magic) {
            position_ = at + 1;
            continue;
        }
        if (at + container_header_size > available) {
            position_ = at;  // wait for the rest of the header
            return std::nullopt;
        }
        const std::uint64_t fat_size = load_le<std::uint64_t>(window, at + 8);
        if (load_le<std::uint16_t>(window, at + 4) != 1 ||
            load_le<std::uint16_t>(window, at + 6) != container_header_size || fat_size == 0 ||
            fat_size > file_size_ - at - container_header_size) {
            position_ = at + 1;
            continue;
        }
        in_container_ = true;
        current_ = ScannedContainer{at, container_header_size + fat_size, {}, {}, 0, 1};
        skips_before_current_ = skips_;
        position_ = at + container_header_size;
        return std::nullopt;  // advance() goes on with walk()
    }
    return std::nullopt;
}

std::optional<Range> FatbinScanner::walk(ScanWindow window) {
    const std::uint64_t available = window.end();
    const std::uint64_t end = current_.offset + current_.size;
    while (position_ < end) {
        const std::uint64_t room = end - position_;
        if (room < min_entry_header) {
            reject();
            return std::nullopt;
        }
        if (position_ + entry_sizes_end > available) return std::nullopt;
        const std::uint64_t header_size = load_le<std::uint32_t>(window, position_ + 4);
        const std::uint64_t payload_size = load_le<std::uint64_t>(window, position_ + 8);
        if (header_size < min_entry_header || header_size > max_entry_header ||
            header_size > room || payload_size > room - header_size) {
            reject();
            return std::nullopt;
        }
        if (position_ + header_size > available) return std::nullopt;
        const auto kind = load_le<std::uint16_t>(window, position_);
        const int arch =
            static_cast<int>(load_le<std::uint32_t>(window, position_ + 28) & 0x7fffffff);
        ++current_.entries;
        if (kind == 1)
            add_arch(current_.ptx_archs, arch);
        else if (is_sass_kind(kind))
            add_arch(current_.sass_archs, arch);
        const Range payload{position_ + header_size, payload_size};
        position_ = payload.offset + payload.size;
        if (payload.size >= min_hole) {
            ++skips_;
            if (keep_holes_) scan_.holes.push_back(payload);
            return payload;
        }
    }
    close_container();
    return std::nullopt;
}

void FatbinScanner::close_container() {
    in_container_ = false;
    last_container_end_ = position_;
    if (scan_.containers.size() < max_containers) {
        scan_.containers.push_back(std::move(current_));
        return;
    }
    ScannedContainer& last = scan_.containers.back();
    last.size = current_.offset + current_.size - last.offset;
    last.entries += current_.entries;
    last.containers += 1;
    for (int arch : current_.sass_archs) add_arch(last.sass_archs, arch);
    for (int arch : current_.ptx_archs) add_arch(last.ptx_archs, arch);
}

std::uint64_t FatbinScanner::settled() const {
    if (in_container_ && skips_ == skips_before_current_)
        return std::max(current_.offset + 1, back_off(position_, max_rewind));
    return position_;
}

std::uint64_t FatbinScanner::next_stop(ScanWindow window) const {
    if (!in_container_) {
        // Containers follow each other: where one ended, look at the next
        // header before copying on. Elsewhere, modest steps bound what must
        // be cut out again when a container shows up mid-step.
        if (position_ == last_container_end_) return position_ + container_header_size;
        return position_ + search_step;
    }
    if (position_ + entry_sizes_end > window.end()) return position_ + entry_sizes_end;
    const std::uint64_t header_size = load_le<std::uint32_t>(window, position_ + 4);
    return position_ + std::clamp(header_size, entry_sizes_end, max_entry_header);
}

void FatbinScanner::reject() {
    // Skipped payloads stay holes (their bytes are gone when streaming); the
    // search resumes after them, or just past the magic when none was skipped.
    if (skips_ == skips_before_current_) position_ = settled();
    in_container_ = false;
}

void FatbinScanner::skip_gap(Range gap) {
    in_container_ = false;
    last_container_end_ = UINT64_MAX;
    ++skips_;
    if (keep_holes_) scan_.holes.push_back(gap);
    position_ = gap.offset + gap.size;
}

FatbinScan FatbinScanner::finish() {
    if (in_container_) in_container_ = false;  // cut short: does not count
    return std::move(scan_);
}

}  // namespace cuvet::elf::detail
