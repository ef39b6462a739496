#pragma once
// What one scan may cost, whatever the input declares. An image is hostile
// until read: a tar header may claim 64 GiB, a small zstd frame may inflate
// to 8 GiB, an ELF may list a million DT_NEEDED entries. Every such quantity
// is counted as it is read and capped here; past a cap the scan ends with
// LimitExceeded (bad input, exit 3) naming the limit and how to raise it
// (docs/limits.md). The CLI sets the limits once (--limit NAME=VALUE) before
// any scan starts; workers only read them.
#include <cstdint>
#include <string>
#include <string_view>

#include "cuvet/core/error.hpp"

namespace cuvet {

struct ScanLimits {
    // Bytes of one file held in memory while it is read: an ELF's bytes less
    // its GPU code and sparse holes, or a whole file handed to a visitor.
    std::uint64_t file_bytes = 4ull << 30;
    // Bytes of one ELF file held while it streams by (a layer's entry): the
    // first quarter of this from the file's start, then the tables its
    // headers locate; the rest is scanned on the fly, never held.
    std::uint64_t elf_held = 64ull << 20;
    // Bytes one layer may decompress to.
    std::uint64_t layer_bytes = 256ull << 30;
    // Descriptors visited across the nested indexes of one OCI layout.
    std::uint64_t index_manifests = 4096;
    // Per ELF file: DT_NEEDED entries, and DT_RPATH/DT_RUNPATH entries.
    std::uint64_t needed = 1024;
    std::uint64_t search_paths = 1024;
    // Per ELF file: bytes of its DT_NEEDED, DT_SONAME, DT_RPATH and DT_RUNPATH strings.
    std::uint64_t dynamic_bytes = 1ull << 20;
    // Per ELF file: dynamic symbol entries, and the bytes of their names.
    std::uint64_t symbols = 4'000'000;
    std::uint64_t symbol_bytes = 512ull << 20;
    // Bytes of paths rebuilt while following symbolic links to place one
    // layer's entries (each entry's parent directory is resolved).
    std::uint64_t link_bytes = 1ull << 30;
    // How many times its compressed size one layer may inflate to, judged
    // once it has inflated past 1 GiB (image/layers/inflate_guard.hpp).
    std::uint64_t inflate_ratio = 1000;
    // Per layer: bytes of its entry names and link targets, held while the
    // layer is applied; and how many directories deep one name may go (each
    // level is resolved again for every entry below it).
    std::uint64_t path_bytes = 256ull << 20;
    std::uint64_t path_depth = 512;
    // Per image, across its layers as they are held before being applied:
    // how many layers its manifest may list, how many entries they hold in
    // all (a layer listed twice counts twice), and their names' bytes.
    std::uint64_t layers = 1024;
    std::uint64_t entries = 2'000'000;
    std::uint64_t image_path_bytes = 512ull << 20;
    // Bytes of one text input read whole: a Dockerfile, .cuvet.yaml, stdin.
    std::uint64_t input_bytes = 16ull << 20;
    // Bytes one Dockerfile word (an ARG/ENV value, a FROM, a RUN word) may
    // expand to: `A1=${A0}${A0}` doubles with every line.
    std::uint64_t expansion_bytes = 1ull << 20;
    // Build stages (FROM lines) of one Dockerfile.
    std::uint64_t stages = 4096;
};

// Linux refuses a symbolic link whose target is longer (PATH_MAX - 1): such a
// layer cannot be extracted, so it is bad input, not a limit to raise.
inline constexpr std::size_t max_link_target = 4095;

const ScanLimits& scan_limits();
void set_scan_limits(const ScanLimits& limits);
// "file-bytes=8G": sets one limit (sizes take K, M, G, T suffixes, powers of
// 1024); throws a usage error for an unknown name or a bad value.
void set_scan_limit(std::string_view assignment);
// The names and current values, for --help and docs ("file-bytes=4G").
std::string describe_scan_limits();

// Bad input (exit 3). The message says what was counted, the limit's name and
// value; `where` is added by whoever knows the file (see with_file).
class LimitExceeded : public Error {
public:
    LimitExceeded(std::string what, std::string_view limit);
    // The same error, its message starting "<file>: ".
    LimitExceeded with_file(const std::string& file) const;

private:
    struct Whole {};  // the message is complete
    LimitExceeded(const std::string& message, Whole) : Error(ErrorKind::input, message) {}
};

// Throws LimitExceeded when `count` is over `limit`, the value of the limit
// `name` (spelled as on the command line): "more than <limit> <what> (limit …)".
void check_limit(std::uint64_t count, std::uint64_t limit, std::string_view name,
                 std::string_view what);

}  // namespace cuvet
