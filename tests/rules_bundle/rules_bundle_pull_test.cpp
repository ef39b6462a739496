// `rules push` / `rules pull` against a real docker-registry on 127.0.0.1: a
// good bundle pulls and is what validate judges with; a tampered, unsigned,
// wrongly signed, rolled-back or corrupted bundle is refused, each with its
// own reason, and nothing of it is cached.
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cuvet/rules_bundle/bundle.hpp"
#include "cuvet/rules_bundle/refused.hpp"
#include "image/registry/registry_client.hpp"
#include "image/registry/registry_push.hpp"
#include "image/storage/sha256.hpp"
#include "rules_bundle/bundle_format.hpp"
#include "support/build_paths.hpp"
#include "support/registry_server.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"

namespace cuvet {
namespace {

namespace fs = std::filesystem;
using rules_bundle::detail::Descriptor;

struct KeyPair {
    fs::path private_pem;
    fs::path public_pem;
};

// A fresh Ed25519 key pair in `dir`, as `openssl genpkey -algorithm ed25519` makes one.
KeyPair make_key(const test::TempDir& dir, const std::string& name) {
    EVP_PKEY* key = EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519");
    REQUIRE(key != nullptr);
    KeyPair pair{dir / (name + ".pem"), dir / (name + ".pub.pem")};
    BIO* bio = BIO_new(BIO_s_mem());
    PEM_write_bio_PrivateKey(bio, key, nullptr, nullptr, 0, nullptr, nullptr);
    char* data = nullptr;
    long length = BIO_get_mem_data(bio, &data);
    test::write_file(pair.private_pem, std::string(data, static_cast<std::size_t>(length)));
    BIO_free(bio);
    bio = BIO_new(BIO_s_mem());
    PEM_write_bio_PUBKEY(bio, key);
    length = BIO_get_mem_data(bio, &data);
    test::write_file(pair.public_pem, std::string(data, static_cast<std::size_t>(length)));
    BIO_free(bio);
    EVP_PKEY_free(key);
    return pair;
}

image::Access plain_http() {
    image::Access access;
    access.insecure = true;
    access.timeout_seconds = 30;
    return access;
}

rules_bundle::PushResult push(const test::RegistryServer& registry, const std::string& tag,
                              const KeyPair& key, std::uint64_t sequence) {
    rules_bundle::PushOptions options;
    options.access = plain_http();
    options.private_key = key.private_pem;
    options.sequence = sequence;
    return rules_bundle::push_bundle(fs::path(CUVET_SOURCE_DIR) / "rules",
                                     registry.host() + "/cuvet/rules:" + tag, options);
}

// The refusal `pull` throws (exit 5); any other error fails the test.
std::string refusal(const std::string& reference, const rules_bundle::PullOptions& options) {
    try {
        rules_bundle::pull_bundle(reference, options);
    } catch (const rules_bundle::BundleRefused& error) {
        return error.what();
    }
    FAIL("pulled " << reference << " although it should be refused");
    return {};
}

// A manifest written by hand, for the bundles `rules push` never makes.
void push_manifest(const test::RegistryServer& registry, const std::string& tag,
                   const Descriptor& payload, const std::optional<Descriptor>& signature) {
    nlohmann::json layers = nlohmann::json::array();
    for (const auto* descriptor : {&payload, signature ? &*signature : nullptr})
        if (descriptor)
            layers.push_back({{"mediaType", descriptor->media_type},
                              {"digest", descriptor->digest},
                              {"size", descriptor->size}});
    nlohmann::json manifest = {{"schemaVersion", 2},
                               {"mediaType", rules_bundle::detail::manifest_media_type},
                               {"artifactType", rules_bundle::detail::artifact_type},
                               {"config",
                                {{"mediaType", rules_bundle::detail::empty_media_type},
                                 {"digest", image::sha256_digest("{}")},
                                 {"size", 2}}},
                               {"layers", layers}};
    image::RegistryClient client(image::parse_registry_reference(registry.host() + "/cuvet/rules"),
                                 plain_http(), "pull,push");
    image::push_manifest(client, tag, rules_bundle::detail::manifest_media_type, manifest.dump());
}

Descriptor push_blob(const test::RegistryServer& registry, const std::string& media_type,
                     const std::string& bytes) {
    image::RegistryClient client(image::parse_registry_reference(registry.host() + "/cuvet/rules"),
                                 plain_http(), "pull,push");
    const std::string digest = image::sha256_digest(bytes);
    image::push_blob(client, digest, bytes);
    return {media_type, digest, bytes.size()};
}

// The descriptors of a pushed bundle, read back from the registry.
std::pair<Descriptor, Descriptor> layers_of(const test::RegistryServer& registry,
                                            const std::string& tag) {
    image::RegistryClient client(image::parse_registry_reference(registry.host() + "/cuvet/rules"),
                                 plain_http());
    auto manifest = nlohmann::json::parse(client.manifest(tag).body);
    auto read = [](const nlohmann::json& layer) {
        return Descriptor{layer["mediaType"].get<std::string>(), layer["digest"].get<std::string>(),
                          layer["size"].get<std::uint64_t>()};
    };
    return {read(manifest["layers"][0]), read(manifest["layers"][1])};
}

std::string blob(const test::RegistryServer& registry, const Descriptor& descriptor) {
    return test::read_file(registry.blob_data(descriptor.digest));
}

}  // namespace

TEST_CASE(
    "rules pull: a good bundle is used and tampered, unsigned, wrong-key, rolled-back and "
    "corrupted bundles are each refused",
    "[rules-bundle][integration]") {
    if (!test::RegistryServer::available()) CUVET_SKIP("docker-registry, skopeo or openssl absent");
    test::RegistryServer registry;
    test::TempDir dir;
    const KeyPair release = make_key(dir, "release");
    const KeyPair stranger = make_key(dir, "stranger");
    rules_bundle::PullOptions options;
    options.access = plain_http();
    options.trust_keys = {release.public_pem};
    options.cache_dir = dir / "cache";
    options.config_dir = dir / "config";
    const std::string base = registry.host() + "/cuvet/rules:";

    // Good: pulled, cached, and what validate/lint judge with.
    const auto pushed = push(registry, "good", release, 10);
    const auto pulled = rules_bundle::pull_bundle(base + "good", options);
    CHECK(pulled.manifest_digest == pushed.manifest_digest);
    CHECK(pulled.version.sequence == 10);
    auto active = rules_bundle::load_active_rules(std::nullopt, options.cache_dir);
    CHECK(active.version.rfind("bundle 10 (", 0) == 0);
    CHECK(active.origin ==
          "docker://" + registry.host() + "/cuvet/rules@" + pushed.manifest_digest);
    CHECK(active.note.find("judging with rules bundle 10") != std::string::npos);
    CHECK_FALSE(active.db.tables().empty());
    // The same bundle again is no rollback.
    CHECK(rules_bundle::pull_bundle(base + "good", options).already_cached);

    // Pinned by digest: the manifest the registry serves must be that digest.
    CHECK(rules_bundle::pull_bundle(registry.host() + "/cuvet/rules@" + pushed.manifest_digest,
                                    options)
              .version.sequence == 10);

    // Wrong key: validly signed, by a key nobody trusts.
    push(registry, "stranger", stranger, 11);
    CHECK_THAT(refusal(base + "stranger", options),
               Catch::Contains("which is not trusted") && Catch::Contains("--trust-key"));

    // Rolled back: an older sequence than the cached bundle, validly signed.
    push(registry, "old", release, 9);
    CHECK_THAT(
        refusal(base + "old", options),
        Catch::Contains("rolled back") && Catch::Contains("older than the cached bundle 10"));

    // Tampered: the payload changed after signing, the signature kept.
    const auto [payload, signature] = layers_of(registry, "good");
    std::string changed = blob(registry, payload);
    const auto at = changed.find("\"sequence\":10");
    REQUIRE(at != std::string::npos);
    changed.replace(at, 13, "\"sequence\":12");
    const Descriptor forged = push_blob(registry, payload.media_type, changed);
    push_manifest(registry, "tampered", forged, signature);
    CHECK_THAT(refusal(base + "tampered", options), Catch::Contains("tampered bundle"));

    // Unsigned: a payload and no signature blob.
    push_manifest(registry, "unsigned", forged, std::nullopt);
    CHECK_THAT(refusal(base + "unsigned", options), Catch::Contains("unsigned bundle"));

    // Digest mismatch: the registry serves other bytes than the manifest names.
    push(registry, "corrupt", release, 13);
    const auto [corrupt_payload, corrupt_signature] = layers_of(registry, "corrupt");
    std::string bytes = blob(registry, corrupt_payload);
    bytes[bytes.size() / 2] ^= 1;
    test::write_file(registry.blob_data(corrupt_payload.digest), bytes);
    CHECK_THAT(refusal(base + "corrupt", options),
               Catch::Contains("digest mismatch: the payload blob " + corrupt_payload.digest));

    // Nothing refused was cached: bundle 10 is still the one used.
    active = rules_bundle::load_active_rules(std::nullopt, options.cache_dir);
    CHECK(active.version.rfind("bundle 10 (", 0) == 0);

    // A cached bundle damaged after the pull is never used: compiled-in rules, with a warning.
    for (const auto& entry : fs::directory_iterator(options.cache_dir / "rules"))
        if (fs::exists(entry.path() / "payload.json"))
            test::write_file(entry.path() / "payload.json", changed);
    active = rules_bundle::load_active_rules(std::nullopt, options.cache_dir);
    CHECK(active.origin == "built-in");
    CHECK(active.version.rfind("built-in ", 0) == 0);
    CHECK_THAT(active.note, Catch::Contains("warning: the cached rules bundle is not used") &&
                                Catch::Contains("digest mismatch"));
}

}  // namespace cuvet
