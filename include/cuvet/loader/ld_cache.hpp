#pragma once
// The image's /etc/ld.so.cache, read from its real binary format: glibc's
// "glibc-ld.so.cache1.1" (alone, or hidden behind the libc5-era
// "ld.so-1.7.0" header) with its glibc-hwcaps extension section.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cuvet::loader {

// Flag values written by ldconfig (glibc sysdeps/generic/ldconfig.h).
inline constexpr std::int32_t cache_flag_elf_libc6 = 0x0003;
inline constexpr std::int32_t cache_flag_x8664_lib64 = 0x0300;
inline constexpr std::int32_t cache_flag_aarch64_lib64 = 0x0a00;

struct LdCacheEntry {
    std::string name;           // the key: a soname ("libcudnn.so.9")
    std::string path;           // the value: where ldconfig saw it
    std::int32_t flags = 0;     // type (ELF libc6) | arch requirement (x86-64 lib64…)
    std::uint64_t hwcap = 0;    // legacy hwcap bits, or a glibc-hwcaps reference
    std::string hwcaps_subdir;  // "x86-64-v3" when the entry came from glibc-hwcaps/
};

struct LdCache {
    std::string format;                 // "new", "old", "old+new"
    std::vector<LdCacheEntry> entries;  // in file order (sorted by ldconfig)
};

// Never throws: malformed bytes yield nullopt and, if asked, the reason.
std::optional<LdCache> parse_ld_cache(std::string_view bytes, std::string* why_not = nullptr);

// The flags value ld.so accepts for objects of this machine and class
// (_DL_CACHE_DEFAULT_ID in glibc's per-arch dl-cache.h).
std::int32_t cache_flags_for(std::uint16_t machine, bool is_64bit);

// What ld.so's _dl_load_cache_lookup returns for `name`: entries whose flags
// match, a glibc-hwcaps entry the host supports (best first in `hwcaps`)
// before the plain one. Legacy hwcap entries (tls/, haswell/) are skipped.
const LdCacheEntry* cache_lookup(const LdCache& cache, std::string_view name,
                                 std::int32_t wanted_flags, const std::vector<std::string>& hwcaps);

}  // namespace cuvet::loader
