// libFuzzer target for the ELF reader on the scan path: elf::inspect must
// return facts or nullopt for any bytes, never read out of bounds, never loop
// for long. The fatbin walker and the dlopen-name search also get the raw input,
// since a hostile .nv_fatbin or .rodata reaches them unfiltered. And the
// same bytes streamed through ElfStream (blocks of input-derived sizes, a
// reused buffer full of an earlier input's bytes) must give the same facts,
// or both stop at the same scan limit (tightened here so inputs reach them).
// elf-held is tightened too, so that most inputs go by partly unkept: a
// stream may then fail closed (elf-held) where the whole file reads, but
// never report other facts.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "cuvet/core/scan_limits.hpp"
#include "cuvet/core/scratch_buffer.hpp"
#include "cuvet/elf/dlopen_strings.hpp"
#include "cuvet/elf/elf_info.hpp"
#include "cuvet/elf/elf_stream.hpp"
#include "cuvet/elf/fatbin.hpp"

namespace {

// Facts, nullopt, or "the input went past a limit" (the bool).
template <class Read>
std::pair<std::optional<cuvet::elf::ElfInfo>, bool> facts_or_limit(Read read) {
    try {
        return {read(), false};
    } catch (const cuvet::LimitExceeded&) {
        return {std::nullopt, true};
    }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    cuvet::ScanLimits limits;
    limits.file_bytes = 256 << 10;
    limits.elf_held = 16 << 10;  // 4 KiB from the start, then what the headers locate
    limits.needed = 64;
    limits.search_paths = 64;
    limits.dynamic_bytes = 4096;
    limits.symbols = 4096;
    limits.symbol_bytes = 64 << 10;
    cuvet::set_scan_limits(limits);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace cuvet;
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    std::string why;
    if (auto info = facts_or_limit([&] { return elf::inspect(bytes, &why); }).first) {
        // Touch every string so ASan sees any view that escaped its buffer.
        std::size_t total = info->soname.size();
        for (const auto& name : info->needed) total += name.size();
        for (const auto& need : info->version_needs)
            total += need.file.size() + need.versions.size();
        for (const auto& name : info->imported_symbols) total += name.size();
        (void)total;
        (void)elf::machine_name(info->machine);
    }
    // Small even blocks, and two blocks split at an input-chosen point (a
    // block ending right at a payload's end once hid a container).
    static ScratchBuffer buffer;
    const auto whole = facts_or_limit([&] { return elf::inspect(bytes); });
    const std::size_t step = 1 + (size ? data[size / 2] % 251 : 0);
    const std::size_t split = size ? (data[size / 3] * 257u + data[size - 1]) % (size + 1) : 0;
    for (int pass = 0; pass < 4; ++pass) {
        // Passes 2 and 3 hold the whole input (elf-held above its size): the
        // stream must then agree to the byte, dlopen names included.
        ScanLimits limits = scan_limits();
        limits.elf_held = pass < 2 ? 16 << 10 : 1 << 30;
        set_scan_limits(limits);
        const auto streamed = facts_or_limit([&] {
            elf::ElfStream stream(size, buffer);
            if (pass % 2 == 0) {
                for (std::size_t at = 0; at < size; at += step)
                    stream.write(bytes.substr(at, step), at);
            } else {
                stream.write(bytes.substr(0, split), 0);
                stream.write(bytes.substr(split), split);
            }
            return stream.finish();
        });
        // Only the stream holds bytes up to a budget (elf-held), so it may stop where inspect()
        // does not.
        if (streamed.second && !whole.second && pass < 2) continue;
        if (streamed.second != whole.second ||
            streamed.first.has_value() != whole.first.has_value())
            __builtin_trap();
        if (!whole.first) continue;
        elf::ElfInfo expected = *whole.first;
        // Names for dlopen are searched in the bytes as they go by: where
        // .rodata starts is known only at the end, so a name crossing its first
        // byte may be read whole by the stream and cut by the whole-file search.
        if (pass < 2) expected.dlopen_candidates = streamed.first->dlopen_candidates;
        if (!(*streamed.first == expected)) __builtin_trap();
    }
    (void)elf::parse_fatbin(bytes, true);
    (void)elf::find_embedded_fatbins(bytes, size % 8);
    (void)elf::find_dlopen_candidates(bytes);
    return 0;
}
