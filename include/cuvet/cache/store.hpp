#pragma once
// The layer fact cache on disk ($XDG_CACHE_HOME/cuvet, default ~/.cache/cuvet):
// one file per layer, named by its diff_id and blob digest, written
// atomically (temp file + rename). An entry is used only when its header,
// analyzer version, key and checksum all agree; anything else is a miss, and
// the caller reads the layer again and overwrites it. Least recently used
// entries go first once the cache outgrows its size limit.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cuvet/cache/layer_facts.hpp"

namespace cuvet::cache {

// Bump whenever the facts a scan collects per layer change (selection, ElfInfo
// fields, text files): entries of other versions are foreign and never read.
inline constexpr std::uint32_t format_version =
    3;  // 2: scripts in bin dirs kept whole; 3: compiler releases

inline constexpr std::uint64_t default_max_bytes = 2ull << 30;

// $CUVET_CACHE_MAX ("500M", "4G", bytes without a suffix), else the default.
// A value that does not parse is a usage error.
std::uint64_t max_bytes_from_env();
std::uint64_t parse_size(const std::string& text);  // throws cuvet::Error(usage)

struct Key {
    std::string diff_id;      // "sha256:…"
    std::string blob_digest;  // "sha256:…", or empty when only the diff_id is known
};

struct EntryInfo {
    std::filesystem::path file;
    std::string diff_id, blob_digest;  // empty when the entry is unreadable
    std::uint64_t bytes = 0;
    std::filesystem::file_time_type last_used;
    bool usable = false;  // this cuvet would use it (right version, checksum good)
};

struct Stats {
    std::size_t hits = 0, misses = 0, rejected = 0, written = 0;
};

class Store {
public:
    // `max_bytes` is the size the cache is trimmed to after each write.
    explicit Store(std::filesystem::path dir, std::uint64_t max_bytes = default_max_bytes);

    // $XDG_CACHE_HOME/cuvet, else $HOME/.cache/cuvet.
    static std::filesystem::path default_dir();

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
    std::filesystem::path file_of(const Key& key) const;
    std::vector<EntryInfo> entries(bool inspect) const;
    void inspect_entry(EntryInfo& info) const;
    static std::uint64_t trim(const std::vector<EntryInfo>& entries, std::uint64_t max_bytes);

    std::filesystem::path dir_;
    std::uint64_t max_bytes_;
    struct Counters;
    std::shared_ptr<Counters> counters_;
};

}  // namespace cuvet::cache
