#pragma once
// The verified bundle on disk, under the layer cache's directory and by its
// rules (src/cache): cache_dir/rules, 0700, owned by this user, files written
// without following links. `current` names the bundle in use, so a bundle is
// replaced by one rename and a reader never sees half of one.
#include <filesystem>
#include <optional>
#include <string>

#include "verify.hpp"

namespace cuvet::rules_bundle::detail {

struct CachedBundle {
    BundleBytes bytes;
    std::string signer_pem;
    std::string reference;  // "docker://host/repo@sha256:…"
    std::filesystem::path dir;
};

// The cache directory: `cache_dir`, or cache::Store::default_dir() when empty.
std::filesystem::path bundle_cache_root(const std::filesystem::path& cache_dir);

// The bundle `current` names; nullopt when none was pulled. `refused` says
// why the directory is not trusted (then nullopt too).
std::optional<CachedBundle> read_cached_bundle(const std::filesystem::path& cache_dir,
                                               std::string& refused);

// Stores a verified bundle and makes it current; throws an io error naming the path.
std::filesystem::path store_bundle(const std::filesystem::path& cache_dir,
                                   const CachedBundle& bundle, const std::string& manifest_digest);

}  // namespace cuvet::rules_bundle::detail
