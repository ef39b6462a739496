#pragma once
// elf::inspect for a file that streams by (a layer's tar entry): the bytes go
// into a caller-owned, reused buffer, except the payloads of fatbin
// containers, which are skipped as they arrive. The facts are the same as
// elf::inspect of the whole file (both read around the same holes).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "cuvet/core/scratch_buffer.hpp"
#include "cuvet/elf/elf_info.hpp"

namespace cuvet::elf {

class ElfStream {
public:
    // `size` is the file's size as announced (a tar header); `buffer` is
    // borrowed until finish() and its previous contents are overwritten.
    ElfStream(std::uint64_t size, ScratchBuffer& buffer);
    ~ElfStream();
    ElfStream(const ElfStream&) = delete;
    ElfStream& operator=(const ElfStream&) = delete;

    // The next bytes of the file, at `offset` (>= the end of what came before).
    // A gap, as in sparse tar entries, reads as zeros up to 64 KiB; a longer
    // one is a hole (never stored, unreadable like skipped GPU code). Throws
    // LimitExceeded past the file-bytes limit (cuvet/core/scan_limits.hpp).
    void write(std::string_view block, std::uint64_t offset);
    std::optional<ElfInfo> finish(std::string* why_not = nullptr);

private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace cuvet::elf
