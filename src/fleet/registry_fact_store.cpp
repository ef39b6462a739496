// The fleet's fact store on the registry code the images are read with (one HTTP client: the
// same auth, TLS and retries). An entry is an OCI 1.1 artifact: the empty config and one blob,
// the sealed facts, under a tag that names the layer and the fact format.
#include <nlohmann/json.hpp>

#include "cuvet/cache/sealed_facts.hpp"
#include "cuvet/cache/store.hpp"
#include "cuvet/core/error.hpp"
#include "cuvet/fleet/fact_store.hpp"
#include "image/registry/registry_client.hpp"
#include "image/registry/registry_push.hpp"
#include "image/storage/sha256.hpp"

namespace cuvet::fleet {
namespace {

using nlohmann::json;

constexpr const char* manifest_media_type = "application/vnd.oci.image.manifest.v1+json";
constexpr const char* artifact_type = "application/vnd.cuvet.layer-facts.v1";
constexpr const char* entry_media_type = "application/vnd.cuvet.layer-facts.v1.sealed";
constexpr const char* empty_media_type = "application/vnd.oci.empty.v1+json";
constexpr const char* empty_config = "{}";

std::string strip_transport(const std::string& text) {
    return text.rfind("docker://", 0) == 0 ? text.substr(9) : text;
}

json descriptor(const std::string& media_type, const std::string& bytes) {
    return {
        {"mediaType", media_type}, {"digest", image::sha256_digest(bytes)}, {"size", bytes.size()}};
}

std::string entry_manifest(const std::string& diff_id, const std::string& entry) {
    json layer = descriptor(entry_media_type, entry);
    layer["annotations"] = {{"org.opencontainers.image.title", "facts"}};
    return json{{"schemaVersion", 2},
                {"mediaType", manifest_media_type},
                {"artifactType", artifact_type},
                {"config", descriptor(empty_media_type, empty_config)},
                {"layers", json::array({layer})},
                // For people looking at the registry; what is believed is sealed in the entry.
                {"annotations",
                 {{"dev.cuvet.facts.diff_id", diff_id},
                  {"dev.cuvet.facts.format", std::to_string(cache::format_version)}}}}
        .dump();
}

bool not_found(const Error& error) {
    return std::string(error.what()).find("(HTTP 404") != std::string::npos;
}

}  // namespace

RegistryFactStore::RegistryFactStore(const std::string& repository, const image::Access& access,
                                     std::string key, std::function<void(const std::string&)> log)
    : key_(std::move(key)), log_(std::move(log)) {
    if (key_.size() < cache::min_key_bytes)
        fail_usage("the fact store key needs at least " + std::to_string(cache::min_key_bytes) +
                   " bytes (openssl rand -hex 32 makes one)");
    const std::string text = strip_transport(repository);
    auto reference = image::parse_registry_reference(text);
    if (!reference.digest.empty() || text.find(':', text.find('/')) != std::string::npos)
        fail_usage("--fact-store " + repository + ": a repository (HOST/REPO), not a tag");
    name_ = "docker://" + reference.registry + "/" + reference.repository;
    try {
        client_ = std::make_unique<image::RegistryClient>(reference, access, "pull,push");
    } catch (const Error& error) {
        if (error.kind() == ErrorKind::usage) throw;
        note_failure(error.what());
    }
}

RegistryFactStore::~RegistryFactStore() = default;

std::string RegistryFactStore::tag_of(const std::string& diff_id) {
    const auto colon = diff_id.find(':');
    return "facts-v" + std::to_string(cache::format_version) + "-" +
           (colon == std::string::npos ? diff_id : diff_id.substr(colon + 1));
}

void RegistryFactStore::note_failure(const std::string& what) {
    std::lock_guard lock(mutex_);
    ++stats_.failed;
    if (failure_told_ || !log_) return;
    failure_told_ = true;  // one line, not one per layer of a store that is down
    log_("fact store " + name_ + " not used for now: " + what + "; layers are read instead");
}

// The sealed bytes of the layer's entry; empty when it has none. Throws on anything else.
std::string RegistryFactStore::fetch_entry(const std::string& diff_id) {
    std::string body;
    try {
        body = client_->manifest(tag_of(diff_id)).body;
    } catch (const Error& error) {
        if (not_found(error)) return {};
        throw;
    }
    const json manifest = json::parse(body, nullptr, false);
    const json* layer = nullptr;
    if (manifest.is_object() && manifest.contains("layers") && manifest["layers"].is_array() &&
        manifest["layers"].size() == 1)
        layer = &manifest["layers"][0];
    if (layer == nullptr || !layer->is_object() ||
        layer->value("mediaType", "") != entry_media_type ||
        !layer->value("size", json()).is_number_unsigned() ||
        !layer->value("digest", json()).is_string())
        fail_input(name_ + ":" + tag_of(diff_id) + ": not a cuvet fact-store entry");
    const auto size = (*layer)["size"].get<std::uint64_t>();
    if (size > cache::max_entry_bytes)
        fail_input(name_ + ": entry of " + std::to_string(size) + " bytes, over the limit");
    // small_blob checks the bytes against the digest the manifest names.
    return client_->small_blob((*layer)["digest"].get<std::string>(), size);
}

std::optional<cache::LayerFacts> RegistryFactStore::load(const std::string& diff_id) {
    if (!client_) return std::nullopt;
    std::string entry;
    try {
        entry = fetch_entry(diff_id);
    } catch (const std::exception& error) {
        note_failure(error.what());
        return std::nullopt;
    }
    if (entry.empty()) {
        std::lock_guard lock(mutex_);
        ++stats_.misses;
        return std::nullopt;
    }
    auto opened = cache::unseal_facts(key_, diff_id, entry);
    std::lock_guard lock(mutex_);
    if (!opened.facts) {
        ++stats_.refused;
        // Never believed: the layer is read, and its fresh facts replace the entry.
        if (log_)
            log_("fact store entry " + name_ + ":" + tag_of(diff_id) + " refused (" +
                 opened.refused + "); the layer is read instead");
        return std::nullopt;
    }
    ++stats_.hits;
    return std::move(opened.facts);
}

void RegistryFactStore::save(const std::string& diff_id, const cache::LayerFacts& facts) {
    {
        std::lock_guard lock(mutex_);
        shared_since_.push_back(diff_id);
    }
    if (!client_) return;
    try {
        const std::string entry = cache::seal_facts(key_, diff_id, facts);
        if (entry.size() > cache::max_entry_bytes) return;  // load() would never read it
        image::push_blob(*client_, image::sha256_digest(empty_config), empty_config);
        image::push_blob(*client_, image::sha256_digest(entry), entry);
        image::push_manifest(*client_, tag_of(diff_id), manifest_media_type,
                             entry_manifest(diff_id, entry));
        std::lock_guard lock(mutex_);
        ++stats_.shared;
    } catch (const std::exception& error) {
        note_failure(error.what());
    }
}

bool RegistryFactStore::has(const std::string& diff_id) {
    if (!client_) return false;
    try {
        client_->manifest(tag_of(diff_id));
        return true;
    } catch (const std::exception&) {
        return false;
    }
}

FactStoreStats RegistryFactStore::stats() const {
    std::lock_guard lock(mutex_);
    return stats_;
}

std::vector<std::string> RegistryFactStore::take_shared() {
    std::lock_guard lock(mutex_);
    return std::exchange(shared_since_, {});
}

}  // namespace cuvet::fleet
