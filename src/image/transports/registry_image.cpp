// Images in a registry (docker://HOST/REPO:TAG): the manifest (through an
// index when the tag names several platforms) and the config are fetched at
// open; a layer blob is only requested when scan() reads that layer, so a
// consumer that already knows a layer by its diff_id never downloads it.
#include <algorithm>

#include "cuvet/core/error.hpp"
#include "image/config/config_parser.hpp"
#include "image/layers/layered_image.hpp"
#include "image/registry/registry_client.hpp"
#include "image/storage/blob_spool.hpp"
#include "image/storage/sha256.hpp"
#include "image/transports/formats.hpp"

namespace cuvet::image {
namespace {

using nlohmann::json;

constexpr int max_registry_index_depth = 4;

bool is_index(const std::string& media_type) {
    return media_type == "application/vnd.oci.image.index.v1+json" ||
           media_type == "application/vnd.docker.distribution.manifest.list.v2+json";
}

// Layers are addressed by their digest: the store's "path" is "sha256:…".
class RegistryBlobStore : public BlobStore {
public:
    RegistryBlobStore(std::shared_ptr<RegistryClient> client,
                      std::map<std::string, std::uint64_t> sizes, bool keep_fetched_blobs)
        : client_(std::move(client)),
          sizes_(std::move(sizes)),
          spool_(keep_fetched_blobs ? std::make_unique<BlobSpool>() : nullptr) {}

    std::optional<std::uint64_t> size(const std::string& digest) const override {
        auto it = sizes_.find(digest);
        if (it == sizes_.end()) return std::nullopt;
        return it->second;
    }
    std::unique_ptr<ByteSource> open(const std::string& digest) const override {
        auto known = size(digest);
        if (!known) fail_input(describe(digest) + ": not a blob of this image");
        if (!spool_) return client_->open_blob(digest, *known);
        if (auto kept = spool_->open_kept(digest)) return kept;
        return spool_->keep_while_reading(client_->open_blob(digest, *known), digest, *known);
    }
    std::string describe(const std::string& digest) const override {
        return client_->name() + "@" + digest;
    }

private:
    std::shared_ptr<RegistryClient> client_;
    std::map<std::string, std::uint64_t> sizes_;
    std::unique_ptr<BlobSpool> spool_;
};

struct Fetched {
    json document;
    std::string media_type;
    std::string digest;
};

Fetched fetch_manifest(RegistryClient& client, const std::string& ref, const std::string& pinned) {
    auto document = client.manifest(ref);
    Fetched fetched;
    fetched.digest = sha256_digest(document.body);
    if (!pinned.empty() && fetched.digest != pinned)
        fail_input(client.name() + ": manifest " + ref + ": digest mismatch: expected " + pinned +
                   ", content is " + fetched.digest);
    const std::string where = client.name() + ": manifest " + ref;
    fetched.document = parse_json(document.body, where);
    if (!fetched.document.is_object()) fail_input(where + ": manifest must be a JSON object");
    // The body's own mediaType wins over Content-Type: some registries send text/plain.
    fetched.media_type = fetched.document.value("mediaType", document.media_type);
    if (fetched.document.value("schemaVersion", 0) == 1)
        fail_input(where +
                   ": Docker schema 1 manifest, which cuvet does not read (push the image again "
                   "with a current docker or skopeo)");
    return fetched;
}

Platform descriptor_platform(const json& descriptor) {
    Platform platform{"", "", ""};
    if (auto p = descriptor.find("platform"); p != descriptor.end() && p->is_object()) {
        platform.os = p->value("os", "");
        platform.architecture = p->value("architecture", "");
        platform.variant = p->value("variant", "");
    }
    return platform;
}

std::string choose_from_index(const Fetched& index, const OpenOptions& options,
                              const std::string& where) {
    auto manifests = index.document.find("manifests");
    if (manifests == index.document.end() || !manifests->is_array() || manifests->empty())
        fail_input(where + ": index lists no manifests");
    Platform wanted = options.platform.value_or(Platform{});
    std::string available;
    for (const auto& descriptor : *manifests) {
        if (!descriptor.is_object()) fail_input(where + ": manifest descriptor must be an object");
        Platform platform = descriptor_platform(descriptor);
        if (platform.matches(wanted)) return json_string(descriptor, "digest", where, true);
        if (!platform.os.empty()) available += (available.empty() ? "" : ", ") + platform.str();
    }
    fail_usage(where + ": no manifest for platform " + wanted.str() + " (available: " + available +
               ")");
}

}  // namespace

std::unique_ptr<Image> open_registry_image(const std::string& reference_text,
                                           const OpenOptions& options) {
    auto client =
        std::make_shared<RegistryClient>(parse_registry_reference(reference_text), options.access);
    const auto& reference = client->reference();
    Fetched manifest = fetch_manifest(*client, reference.manifest_reference(), reference.digest);
    for (int depth = 0; is_index(manifest.media_type); ++depth) {
        if (depth == max_registry_index_depth)
            fail_input(client->name() + ": indexes nested deeper than 4 levels");
        std::string digest = choose_from_index(manifest, options, client->name());
        manifest = fetch_manifest(*client, digest, digest);
    }

    ImageInfo info;
    info.format = "registry";
    info.path = client->name();
    info.reference = reference.str();
    info.manifest_digest = manifest.digest;
    const std::string where = client->name() + "@" + manifest.digest;
    auto config = manifest.document.find("config");
    if (config == manifest.document.end() || !config->is_object())
        fail_input(where + ": missing \"config\"");
    info.config_digest = json_string(*config, "digest", where, true);
    if (!is_valid_sha256_digest(info.config_digest))
        fail_input(where + ": invalid or unsupported digest '" + info.config_digest + "'");
    const std::string config_where = client->name() + "@" + info.config_digest;
    std::string config_text =
        client->small_blob(info.config_digest, json_size(*config, "size", where));
    info.config = parse_config_text(config_text, config_where);
    if (options.platform && !info.config.platform.matches(*options.platform))
        fail_usage(client->name() + ": image is for " + info.config.platform.str() + ", not " +
                   options.platform->str());

    auto layers = manifest.document.find("layers");
    if (layers == manifest.document.end() || !layers->is_array())
        fail_input(where + ": missing \"layers\" array");
    if (options.verify_digests && info.config.diff_ids.size() != layers->size())
        fail_input(config_where + ": lists " + std::to_string(info.config.diff_ids.size()) +
                   " diff_ids for " + std::to_string(layers->size()) + " layers");
    std::map<std::string, std::uint64_t> sizes;
    std::vector<LayerCheck> checks;
    for (const auto& descriptor : *layers) {
        LayerInfo layer;
        layer.digest = json_string(descriptor, "digest", where, true);
        if (!is_valid_sha256_digest(layer.digest))
            fail_input(where + ": invalid or unsupported digest '" + layer.digest + "'");
        layer.blob = layer.digest;
        layer.media_type = json_string(descriptor, "mediaType", where, false);
        layer.size = json_size(descriptor, "size", where);
        sizes[layer.digest] = layer.size;
        LayerCheck check;
        if (options.verify_digests) {
            check.blob_digest = layer.digest;
            check.diff_id = info.config.diff_ids[info.layers.size()];
        }
        info.layers.push_back(std::move(layer));
        checks.push_back(std::move(check));
    }
    attach_history(info);
    return std::make_unique<LayeredImage>(
        std::make_unique<RegistryBlobStore>(client, std::move(sizes), options.keep_fetched_blobs),
        std::move(info), std::move(checks));
}

}  // namespace cuvet::image
