// libFuzzer target for the ELF reader on the scan path: elf::inspect must
// return facts or nullopt for any bytes, never read out of bounds, never loop
// for long. The fatbin walker and the dlopen-name search also get the raw input,
// since a hostile .nv_fatbin or .rodata reaches them unfiltered. And the
// same bytes streamed through ElfStream (blocks of input-derived sizes, a
// reused buffer full of an earlier input's bytes) must give the same facts.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "cuvet/core/scratch_buffer.hpp"
#include "cuvet/elf/dlopen_strings.hpp"
#include "cuvet/elf/elf_stream.hpp"
#include "cuvet/elf/elf_info.hpp"
#include "cuvet/elf/fatbin.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace cuvet;
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    std::string why;
    if (auto info = elf::inspect(bytes, &why)) {
        // Touch every string so ASan sees any view that escaped its buffer.
        std::size_t total = info->soname.size();
        for (const auto& name : info->needed) total += name.size();
        for (const auto& need : info->version_needs) total += need.file.size() + need.versions.size();
        for (const auto& name : info->imported_symbols) total += name.size();
        (void)total;
        (void)elf::machine_name(info->machine);
    }
    // Small even blocks, and two blocks split at an input-chosen point (a
    // block ending right at a payload's end once hid a container).
    static ScratchBuffer buffer;
    const auto whole = elf::inspect(bytes);
    const std::size_t step = 1 + (size ? data[size / 2] % 251 : 0);
    const std::size_t split = size ? (data[size / 3] * 257u + data[size - 1]) % (size + 1) : 0;
    for (int pass = 0; pass < 2; ++pass) {
        elf::ElfStream stream(size, buffer);
        if (pass == 0) {
            for (std::size_t at = 0; at < size; at += step) stream.write(bytes.substr(at, step), at);
        } else {
            stream.write(bytes.substr(0, split), 0);
            stream.write(bytes.substr(split), split);
        }
        const auto streamed = stream.finish();
        if (streamed.has_value() != whole.has_value() || (whole && !(*streamed == *whole))) __builtin_trap();
    }
    (void)elf::parse_fatbin(bytes, true);
    (void)elf::find_embedded_fatbins(bytes, size % 8);
    (void)elf::find_dlopen_candidates(bytes);
    return 0;
}
