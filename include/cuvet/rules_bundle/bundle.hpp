#pragma once
// The rules as a signed OCI artifact (docs/rules-bundle.md): `cuvet rules push`
// signs a rules directory with Ed25519 and pushes it to a registry, `cuvet rules
// pull` verifies digests, signature and version before it caches the bundle,
// and validate/lint judge with the cached bundle or, failing that, the
// compiled-in rules.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cuvet/image/image.hpp"
#include "cuvet/rules/database.hpp"

namespace cuvet::rules_bundle {

// What orders bundles: a bundle with a lower sequence, or an earlier creation
// date, than the one cached is a rollback and refused.
struct BundleVersion {
    std::uint64_t sequence = 0;
    std::string created;  // RFC 3339, UTC: "2026-11-28T06:40:00Z"
};

struct PushOptions {
    image::Access access;
    std::filesystem::path private_key;      // Ed25519, PEM (PKCS#8)
    std::optional<std::uint64_t> sequence;  // default: the creation time in Unix seconds
};

struct PushResult {
    std::string manifest_digest;
    BundleVersion version;
    std::string key_id;
    std::size_t tables = 0;
};

// Loads every table of `rules_dir` with the same loaders as --rules-dir (a bad
// table is an input error before anything is pushed), signs and pushes it.
PushResult push_bundle(const std::filesystem::path& rules_dir, const std::string& reference,
                       const PushOptions& options);

struct PullOptions {
    image::Access access;
    std::vector<std::filesystem::path> trust_keys;  // --trust-key, beside the built-in key
    std::filesystem::path cache_dir;   // empty: the layer cache's directory (cache::Store)
    std::filesystem::path config_dir;  // empty: $XDG_CONFIG_HOME/cuvet (trusted-keys/*.pem)
};

struct PullResult {
    std::string manifest_digest;
    BundleVersion version;
    std::string key_id;
    std::filesystem::path cached_at;
    bool already_cached = false;  // the same bundle was cached before
};

// Throws BundleRefused (refused.hpp, exit 5) naming the reason when a digest, the
// signature or the version check refuses the bundle; nothing is cached then.
PullResult pull_bundle(const std::string& reference, const PullOptions& options);

// The rules a report judges with, and how it names them.
struct ActiveRules {
    rules::Database db;
    std::string version;  // "bundle 1764312000 (2026-11-28T06:40:00Z)", "built-in 2026.11.23-3"
    std::string origin;   // "docker://host/repo@sha256:…", "built-in", "--rules-dir DIR"
    std::string note;     // one line for stderr: a bundle used, or refused and why; may be empty
};

// --rules-dir when given; else a cached bundle that verifies again and is not
// older than the compiled-in rules; else the compiled-in rules.
ActiveRules load_active_rules(const std::optional<std::filesystem::path>& rules_dir,
                              const std::filesystem::path& cache_dir = {});

// The compiled-in rules' version: their newest data_version.
std::string builtin_rules_version(const rules::Database& db);

}  // namespace cuvet::rules_bundle
