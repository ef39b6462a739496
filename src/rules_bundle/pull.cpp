// `cuvet rules pull`: fetch, verify, refuse rollbacks, cache (docs/rules-bundle.md).
#include <algorithm>

#include "bundle_cache.hpp"
#include "cuvet/core/error.hpp"
#include "cuvet/rules_bundle/bundle.hpp"
#include "cuvet/rules_bundle/refused.hpp"
#include "image/registry/registry_client.hpp"
#include "image/storage/sha256.hpp"
#include "trusted_keys.hpp"
#include "verify.hpp"

namespace cuvet::rules_bundle {
namespace {

constexpr std::uint64_t max_blob = 64u << 20;

std::string fetch_blob(image::RegistryClient& client, const detail::Descriptor& descriptor) {
    const std::string what = "blob " + descriptor.digest;
    if (descriptor.size > max_blob)
        refuse_bundle(client.name() + ": " + what + " declares " + std::to_string(descriptor.size) +
                      " bytes; refusing");
    auto response = client.get(
        "/v2/" + client.reference().repository + "/blobs/" + descriptor.digest, {}, 0, what);
    auto body = response->read_body(max_blob);
    if (!body) refuse_bundle(client.name() + ": " + what + " is larger than it declares");
    if (!response->transport_error().empty())
        fail_io(client.name() + ": " + what + ": " + response->transport_error());
    return *body;
}

// The bundle must not be older than what it replaces: a registry (or someone
// between it and us) serving an old, validly signed bundle is a rollback.
void refuse_rollback(const BundleVersion& version, const std::string& origin,
                     const std::filesystem::path& cache_dir, const std::string& manifest_digest,
                     bool& already_cached) {
    const auto builtin = rules::Database::load();
    std::string builtin_date;  // "2026-11-23": the newest table's data date
    for (const auto& table : builtin.tables())
        builtin_date = std::max(builtin_date, table.data_date);
    if (version.created.substr(0, 10) < builtin_date)
        refuse_bundle(origin + ": rolled back: bundle " + std::to_string(version.sequence) +
                      " was created " + version.created + ", before the compiled-in rules (" +
                      builtin_rules_version(builtin) + ")");
    std::string refused;
    auto cached = detail::read_cached_bundle(cache_dir, refused);
    if (!cached) return;
    try {
        auto signer = detail::parse_public_key(cached->signer_pem, "cached signer");
        auto verified = detail::verify_bundle(cached->bytes, {signer}, cached->dir.string());
        const BundleVersion& old = verified.payload.version;
        if (image::sha256_digest(cached->bytes.manifest) == manifest_digest) {
            already_cached = true;
            return;
        }
        if (version.sequence < old.sequence || version.created < old.created)
            refuse_bundle(origin + ": rolled back: bundle " + std::to_string(version.sequence) +
                          " (" + version.created + ") is older than the cached bundle " +
                          std::to_string(old.sequence) + " (" + old.created + ")");
        if (version.sequence == old.sequence)
            refuse_bundle(origin + ": bundle " + std::to_string(version.sequence) +
                          " has the cached bundle's sequence but other content");
    } catch (const BundleRefused& error) {
        // This bundle's own refusal stands; the cached one failing its checks
        // orders nothing: it is replaced.
        if (std::string(error.what()).rfind(origin, 0) == 0) throw;
    } catch (const Error&) {
        // A cached bundle that no longer loads orders nothing either.
    }
}

}  // namespace

PullResult pull_bundle(const std::string& reference, const PullOptions& options) {
    const std::string text = reference.rfind("docker://", 0) == 0 ? reference.substr(9) : reference;
    image::RegistryReference parsed = image::parse_registry_reference(text);
    const auto keys = detail::trusted_keys(options.config_dir, options.trust_keys);
    image::RegistryClient client(parsed, options.access);
    const std::string origin = client.name();
    detail::BundleBytes bytes;
    bytes.manifest = client.manifest(parsed.manifest_reference()).body;
    const std::string manifest_digest = image::sha256_digest(bytes.manifest);
    if (!parsed.digest.empty() && manifest_digest != parsed.digest)
        refuse_bundle(origin + ": digest mismatch: the manifest's content is " + manifest_digest);
    const detail::Manifest manifest = detail::parse_manifest(bytes.manifest, origin);
    bytes.payload = fetch_blob(client, manifest.payload);
    if (manifest.signature) bytes.signature = fetch_blob(client, *manifest.signature);
    const detail::VerifiedBundle verified = detail::verify_bundle(bytes, keys, origin);
    try {
        rules::Database::from_files(verified.payload.files);
    } catch (const Error& error) {
        refuse_bundle(origin + ": the signed tables do not load: " + error.what());
    }
    PullResult result;
    result.manifest_digest = manifest_digest;
    result.version = verified.payload.version;
    result.key_id = verified.signer.key_id;
    refuse_rollback(result.version, origin, options.cache_dir, manifest_digest,
                    result.already_cached);
    const std::string pinned =
        "docker://" + parsed.registry + "/" + parsed.repository + "@" + manifest_digest;
    result.cached_at = detail::store_bundle(
        options.cache_dir, {bytes, verified.signer.pem, pinned, {}}, manifest_digest);
    return result;
}

}  // namespace cuvet::rules_bundle
