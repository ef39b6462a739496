// Which rules validate and lint judge with, and how reports name them.
#include <algorithm>

#include "bundle_cache.hpp"
#include "cuvet/core/error.hpp"
#include "cuvet/rules_bundle/bundle.hpp"
#include "verify.hpp"

namespace cuvet::rules_bundle {
namespace {

std::string newest_data_version(const rules::Database& db) {
    std::string newest;
    for (const auto& table : db.tables()) newest = std::max(newest, table.data_version);
    return newest;
}

std::string newest_data_date(const rules::Database& db) {
    std::string newest;
    for (const auto& table : db.tables()) newest = std::max(newest, table.data_date);
    return newest;
}

ActiveRules builtin_rules(std::string note) {
    ActiveRules active{rules::Database::load(), "", "built-in", std::move(note)};
    active.version = builtin_rules_version(active.db);
    return active;
}

}  // namespace

std::string builtin_rules_version(const rules::Database& db) {
    return "built-in " + newest_data_version(db);
}

ActiveRules load_active_rules(const std::optional<std::filesystem::path>& rules_dir,
                              const std::filesystem::path& cache_dir) {
    if (rules_dir) {
        ActiveRules active{rules::Database::load(rules_dir), "",
                           "--rules-dir " + rules_dir->string(), ""};
        active.version = "directory " + newest_data_version(active.db);
        return active;
    }
    std::string refused;
    auto cached = detail::read_cached_bundle(cache_dir, refused);
    if (!cached) {
        if (refused.empty()) return builtin_rules("");
        return builtin_rules("warning: the cached rules bundle is not used (" + refused +
                             "); judging with the compiled-in rules");
    }
    // Checked again on every use: a cache damaged (or edited) since the pull is never believed.
    try {
        auto signer = detail::parse_public_key(cached->signer_pem, cached->dir.string());
        auto verified = detail::verify_bundle(cached->bytes, {signer}, cached->dir.string());
        ActiveRules active{rules::Database::from_files(verified.payload.files), "", "", ""};
        const BundleVersion& version = verified.payload.version;
        ActiveRules builtin = builtin_rules("");
        if (version.created.substr(0, 10) < newest_data_date(builtin.db)) {
            builtin.note = "note: the cached rules bundle " + std::to_string(version.sequence) +
                           " is older than the compiled-in rules; judging with those";
            return builtin;
        }
        active.version =
            "bundle " + std::to_string(version.sequence) + " (" + version.created + ")";
        active.origin = cached->reference;
        active.note = "note: judging with rules bundle " + std::to_string(version.sequence) +
                      " from " + cached->reference + " (signed by " + signer.key_id + ")";
        return active;
    } catch (const Error& error) {
        return builtin_rules(std::string("warning: the cached rules bundle is not used: ") +
                             error.what() + "; judging with the compiled-in rules");
    }
}

}  // namespace cuvet::rules_bundle
