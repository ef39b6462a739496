#pragma once
// The layer fact cache on disk ($XDG_CACHE_HOME/cuvet, default ~/.cache/cuvet):
// one file per layer, named by its diff_id and blob digest, written
// atomically (temp file + rename). Every entry is authenticated with
// HMAC-SHA256 under a secret only this user can read (the cache's `key` file,
// 0600 in a 0700 directory, or an explicit key for caches shared on purpose),
// so an entry someone else wrote is a miss, never believed. An entry is used
// only when its tag, format version, analyzer version and key all agree;
// anything else is a miss, and the caller reads the layer again and
// overwrites it. A directory owned by another user or writable by others is
// not used at all. Least recently used entries go first once the cache
// outgrows its size limit. docs/cache.md has the design.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cuvet/cache/layer_facts.hpp"

namespace cuvet::cache {

// Bump whenever the facts a scan collects per layer change (selection, ElfInfo
// fields, text files): entries of other versions are foreign and never read.
inline constexpr std::uint32_t format_version =
    11;  // 2: scripts in bin dirs kept whole; 3: compiler releases; 4: HMAC tags; 5: cuDNN release;
         // 6: /etc/passwd and /etc/group kept; 7: layers Go's archive/tar reads otherwise refused;
         // 8: each entry's uid and gid; 9: cuDNN's exported release constants; 10: the texts
         // kept follow the framework catalog (rules/frameworks.json: a new spelling or version
         // file there changes the selection); 11: FIFOs and device nodes told from other entries

// An entry larger than this is never written, and one found is not read:
// a huge (or sparse) file at an entry path costs nothing.
inline constexpr std::uint64_t max_entry_bytes = 256ull << 20;
// The shortest explicit key (CUVET_CACHE_KEY, --cache-key-file) accepted.
inline constexpr std::size_t min_key_bytes = 16;

inline constexpr std::uint64_t default_max_bytes = 2ull << 30;

// $CUVET_CACHE_MAX ("500M", "4G", bytes without a suffix), else the default.
// A value that does not parse is a usage error.
std::uint64_t max_bytes_from_env();
std::uint64_t parse_size(const std::string& text);  // throws cuvet::Error(usage)

// The explicit key of a cache shared on purpose: the contents of `key_file`
// (one trailing newline dropped) when given, else $CUVET_CACHE_KEY, else none
// (the cache's own key file is used). Shorter than min_key_bytes is a usage
// error; an unreadable key file is bad input.
std::optional<std::string> explicit_key(const std::string& key_file);

struct Key {
    std::string diff_id;      // "sha256:…"
    std::string blob_digest;  // "sha256:…", or empty when only the diff_id is known
};

struct EntryInfo {
    std::filesystem::path file;
    std::string diff_id, blob_digest;  // empty when the entry is unreadable
    std::uint64_t bytes = 0;
    std::filesystem::file_time_type last_used;
    bool usable = false;  // this cuvet would use it (right version, tag good under our key)
};

struct Stats {
    std::size_t hits = 0, misses = 0, rejected = 0, written = 0;
};

class Store {
public:
    // `max_bytes` is the size the cache is trimmed to after each write.
    // Creates `dir` (0700) and its key file (0600) when absent; checks that
    // both belong to this user and that nobody else can write the directory.
    // `key` replaces the key file (a cache shared on purpose). Never throws:
    // a cache that cannot be trusted is refused(), and then holds nothing.
    explicit Store(std::filesystem::path dir, std::uint64_t max_bytes = default_max_bytes,
                   std::optional<std::string> key = std::nullopt);

    // $XDG_CACHE_HOME/cuvet, else $HOME/.cache/cuvet; empty when neither is
    // set (absolute): there is no shared fallback such as $TMPDIR.
    static std::filesystem::path default_dir();

    // Why this cache is not used (one line naming the path), or empty when it is.
    const std::string& refused() const { return refused_; }

    // The facts of a layer seen before; nullopt when absent, damaged or
    // foreign. Marks the entry as just used. Never throws.
    std::optional<LayerFacts> load(const Key& key);
    // Writes (or replaces) the entry, then evicts the least recently used
    // ones beyond the size limit. Failures are swallowed: a cache that cannot
    // be written is only a slower run.
    void save(const Key& key, const LayerFacts& facts);

    std::vector<EntryInfo> list() const;  // most recently used first
    // Removes unusable entries and stray temp files, then the least recently
    // used until at most `max_bytes` remain; returns the bytes freed.
    std::uint64_t prune(std::uint64_t max_bytes);

    const std::filesystem::path& dir() const { return dir_; }
    Stats stats() const;

private:
    void open_dir(std::optional<std::string> key);
    std::string tag(std::string_view body) const;
    std::optional<std::string_view> authentic_body(std::string_view file) const;
    std::filesystem::path file_of(const Key& key) const;
    std::vector<EntryInfo> entries(bool inspect) const;
    void inspect_entry(EntryInfo& info) const;
    static std::uint64_t trim(const std::vector<EntryInfo>& entries, std::uint64_t max_bytes);

    std::filesystem::path dir_;
    std::uint64_t max_bytes_;
    std::string key_;      // the HMAC key; empty when refused
    std::string refused_;  // why the cache is not used
    struct Counters;
    std::shared_ptr<Counters> counters_;
};

}  // namespace cuvet::cache
