#include "cuvet/loader/ld_cache.hpp"

#include <cstring>

namespace cuvet::loader {

namespace {

// Layouts from glibc's sysdeps/generic/dl-cache.h. Every read below is
// bounds-checked: the cache comes from an untrusted image.
constexpr std::string_view old_magic = "ld.so-1.7.0";           // followed by nlibs
constexpr std::string_view new_magic = "glibc-ld.so.cache1.1";  // magic + version
constexpr std::size_t old_header_size = 16;                     // magic[11] padded + uint32 nlibs
constexpr std::size_t old_entry_size = 12;                      // int32 flags, uint32 key, value
constexpr std::size_t new_header_size = 48;                     // see struct cache_file_new
constexpr std::size_t new_entry_size = 24;                      // + uint32 osversion, uint64 hwcap
constexpr std::uint32_t extension_magic = 0xeaa42174;
constexpr std::uint32_t extension_tag_glibc_hwcaps = 1;
constexpr std::uint64_t hwcap_extension_bit = 1ULL << 62;
constexpr std::uint64_t hwcap_isa_level_mask = (1U << 10) - 1;

template <typename T>
bool read_at(std::string_view bytes, std::size_t offset, T& out) {
    if (offset > bytes.size() || bytes.size() - offset < sizeof(T)) return false;
    std::memcpy(&out, bytes.data() + offset, sizeof(T));
    return true;
}

// A NUL-terminated string starting at `offset`; nullopt when it runs off the end.
std::optional<std::string> string_at(std::string_view bytes, std::size_t offset) {
    if (offset >= bytes.size()) return std::nullopt;
    auto end = bytes.find('\0', offset);
    if (end == std::string_view::npos) return std::nullopt;
    return std::string(bytes.substr(offset, end - offset));
}

bool fail(std::string* why_not, const std::string& reason) {
    if (why_not) *why_not = reason;
    return false;
}

// glibc-hwcaps subdirectory names, indexed as entries reference them.
std::vector<std::string> read_hwcaps_names(std::string_view bytes, std::size_t new_base,
                                           std::uint32_t extension_offset) {
    std::vector<std::string> names;
    std::uint32_t magic = 0, count = 0;
    if (extension_offset == 0 || !read_at(bytes, extension_offset, magic) ||
        magic != extension_magic || !read_at(bytes, extension_offset + 4, count))
        return names;
    for (std::uint32_t i = 0; i < count && i < 64; ++i) {
        std::size_t section = extension_offset + 8 + std::size_t(i) * 16;
        std::uint32_t tag = 0, offset = 0, size = 0;
        if (!read_at(bytes, section, tag) || !read_at(bytes, section + 8, offset) ||
            !read_at(bytes, section + 12, size))
            break;
        if (tag != extension_tag_glibc_hwcaps) continue;
        for (std::uint32_t at = 0; at + 4 <= size && at < 4096; at += 4) {
            std::uint32_t index = 0;
            if (!read_at(bytes, std::size_t(offset) + at, index)) break;
            names.push_back(string_at(bytes, new_base + index).value_or(""));
        }
    }
    return names;
}

bool parse_new(std::string_view bytes, std::size_t base, LdCache& cache, std::string* why_not) {
    std::uint32_t nlibs = 0, extension_offset = 0;
    if (!read_at(bytes, base + 20, nlibs) || !read_at(bytes, base + 32, extension_offset))
        return fail(why_not, "truncated glibc-ld.so.cache1.1 header");
    if ((bytes.size() - base - new_header_size) / new_entry_size < nlibs)
        return fail(why_not, "entry count runs past the end of the cache");
    auto hwcaps = read_hwcaps_names(bytes, base, extension_offset);
    cache.entries.reserve(nlibs);
    for (std::uint32_t i = 0; i < nlibs; ++i) {
        std::size_t at = base + new_header_size + std::size_t(i) * new_entry_size;
        LdCacheEntry entry;
        std::uint32_t key = 0, value = 0;
        read_at(bytes, at, entry.flags);
        read_at(bytes, at + 4, key);
        read_at(bytes, at + 8, value);
        read_at(bytes, at + 16, entry.hwcap);
        auto name = string_at(bytes, base + key), path = string_at(bytes, base + value);
        if (!name || !path) return fail(why_not, "string offset outside the cache");
        entry.name = std::move(*name);
        entry.path = std::move(*path);
        bool named = ((entry.hwcap >> 32) & ~hwcap_isa_level_mask) == (hwcap_extension_bit >> 32);
        if (named) {
            auto index = std::uint32_t(entry.hwcap);
            entry.hwcaps_subdir = index < hwcaps.size() ? hwcaps[index] : "?";
        }
        cache.entries.push_back(std::move(entry));
    }
    return true;
}

bool parse_old(std::string_view bytes, LdCache& cache, std::string* why_not) {
    std::uint32_t nlibs = 0;
    read_at(bytes, old_magic.size() + 1, nlibs);
    if ((bytes.size() - old_header_size) / old_entry_size < nlibs)
        return fail(why_not, "entry count runs past the end of the cache");
    std::size_t strings = old_header_size + std::size_t(nlibs) * old_entry_size;
    // The new format hides in the old string table, aligned to 8 bytes.
    std::size_t new_base = (strings + 7) & ~std::size_t(7);
    if (new_base + new_header_size <= bytes.size() &&
        bytes.substr(new_base, new_magic.size()) == new_magic) {
        cache.format = "old+new";
        return parse_new(bytes, new_base, cache, why_not);
    }
    cache.format = "old";
    for (std::uint32_t i = 0; i < nlibs; ++i) {
        std::size_t at = old_header_size + std::size_t(i) * old_entry_size;
        LdCacheEntry entry;
        std::uint32_t key = 0, value = 0;
        read_at(bytes, at, entry.flags);
        read_at(bytes, at + 4, key);
        read_at(bytes, at + 8, value);
        auto name = string_at(bytes, strings + key), path = string_at(bytes, strings + value);
        if (!name || !path) return fail(why_not, "string offset outside the cache");
        entry.name = std::move(*name);
        entry.path = std::move(*path);
        cache.entries.push_back(std::move(entry));
    }
    return true;
}

// glibc's _dl_cache_libcmp: digit runs compare numerically, so the cache's
// sort order and its notion of "same name" follow it.
bool same_name(std::string_view a, std::string_view b) {
    std::size_t i = 0, j = 0;
    auto digit = [](char c) { return c >= '0' && c <= '9'; };
    while (i < a.size() && j < b.size()) {
        if (digit(a[i]) && digit(b[j])) {
            unsigned long long x = 0, y = 0;
            while (i < a.size() && digit(a[i])) x = x * 10 + unsigned(a[i++] - '0');
            while (j < b.size() && digit(b[j])) y = y * 10 + unsigned(b[j++] - '0');
            if (x != y) return false;
        } else if (a[i++] != b[j++]) {
            return false;
        }
    }
    return i == a.size() && j == b.size();
}

}  // namespace

std::optional<LdCache> parse_ld_cache(std::string_view bytes, std::string* why_not) {
    LdCache cache;
    if (bytes.size() > new_header_size && bytes.substr(0, new_magic.size()) == new_magic) {
        cache.format = "new";
        if (!parse_new(bytes, 0, cache, why_not)) return std::nullopt;
        return cache;
    }
    if (bytes.size() > old_header_size && bytes.substr(0, old_magic.size()) == old_magic) {
        if (!parse_old(bytes, cache, why_not)) return std::nullopt;
        return cache;
    }
    fail(why_not, "not an ld.so.cache (unknown magic)");
    return std::nullopt;
}

std::int32_t cache_flags_for(std::uint16_t machine, bool is_64bit) {
    constexpr std::uint16_t em_x86_64 = 62, em_aarch64 = 183;
    if (machine == em_x86_64 && is_64bit) return cache_flag_elf_libc6 | cache_flag_x8664_lib64;
    if (machine == em_aarch64) return cache_flag_elf_libc6 | cache_flag_aarch64_lib64;
    return cache_flag_elf_libc6;
}

const LdCacheEntry* cache_lookup(const LdCache& cache, std::string_view name,
                                 std::int32_t wanted_flags,
                                 const std::vector<std::string>& hwcaps) {
    // x86-64 and AArch64 ld.so accept only their own default id; the
    // generic check also takes plain ELF (1).
    bool strict = wanted_flags != cache_flag_elf_libc6;
    const LdCacheEntry* best = nullptr;
    std::size_t best_priority = 0;
    for (const auto& entry : cache.entries) {
        if (!same_name(name, entry.name)) continue;
        bool flags_ok = entry.flags == wanted_flags || (!strict && entry.flags == 1);
        if (!flags_ok) continue;
        bool named = !entry.hwcaps_subdir.empty();
        if (named) {
            std::size_t priority = 0;
            for (std::size_t i = 0; i < hwcaps.size(); ++i)
                if (hwcaps[i] == entry.hwcaps_subdir) priority = i + 1;
            if (priority == 0) continue;
            if (best == nullptr || priority < best_priority) {
                best = &entry;
                best_priority = priority;
            }
            continue;
        }
        // Named entries sort before plain ones: a hwcaps match already wins.
        if (best != nullptr) break;
        if (entry.hwcap != 0) continue;  // legacy hwcap subdirectory entries
        best = &entry;
        if (entry.flags == wanted_flags) break;
    }
    return best;
}

}  // namespace cuvet::loader
