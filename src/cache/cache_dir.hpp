#pragma once
// The trust a cache directory gets before any entry in it is read: who owns
// it, who may write it, and the secret key its entries are authenticated with.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace cuvet::cache::detail {

struct OpenedDir {
    std::string key;      // the HMAC key; empty when refused
    std::string refused;  // why the directory is not used; empty when it is
};

// Creates `dir` (0700), its `layers` directory and, without `explicit_key`,
// its key file (32 random bytes, 0600) when absent, then checks each: owned
// by this user, not writable by group or others, the key file readable by
// this user alone. Never throws.
OpenedDir open_cache_dir(const std::filesystem::path& dir,
                         const std::optional<std::string>& explicit_key);

// The bytes of a regular file of at most `max_bytes`, opened without following
// a link and without blocking (a FIFO never hangs); nullopt for anything else.
// Never throws.
std::optional<std::string> read_regular_file(const std::filesystem::path& path,
                                             std::uint64_t max_bytes);

}  // namespace cuvet::cache::detail
