// OCI image layouts (a directory or a tar of one): index.json → (nested
// indexes →) manifest → config + layers, every blob addressed by digest.
#include <algorithm>

#include "cuvet/core/error.hpp"
#include "cuvet/core/scan_limits.hpp"
#include "image/config/config_parser.hpp"
#include "image/layers/layered_image.hpp"
#include "image/storage/sha256.hpp"
#include "image/transports/formats.hpp"

namespace cuvet::image {
namespace {

using nlohmann::json;

constexpr int max_layout_index_depth = 8;
constexpr const char* ref_name_key = "org.opencontainers.image.ref.name";

struct Candidate {
    json descriptor;        // the manifest's descriptor
    std::string reference;  // ref.name of the top-level entry it came from
    std::optional<Platform> platform;
};

bool is_index(const json& descriptor) {
    std::string type = descriptor.value("mediaType", "");
    return type == "application/vnd.oci.image.index.v1+json" ||
           type == "application/vnd.docker.distribution.manifest.list.v2+json";
}

std::string blob_path(const std::string& digest, const std::string& where) {
    if (!is_valid_sha256_digest(digest))
        fail_input(where + ": invalid or unsupported digest '" + digest + "'");
    return "blobs/sha256/" + digest.substr(7);
}

class OciReader {
public:
    OciReader(BlobStore& store, bool verify) : store_(store), verify_(verify) {}

    // Reads a blob named by a descriptor, checking its size and digest.
    std::string read_blob(const json& descriptor, const std::string& where) {
        std::string digest = json_string(descriptor, "digest", where, true);
        std::string path = blob_path(digest, where);
        if (!store_.exists(path))
            fail_input(store_.describe(path) + ": missing blob (named in " + where + ")");
        // Metadata blobs are read whole under a cap anyway, so --no-verify may
        // skip this; layer sizes are checked always (see open_oci_layout).
        std::uint64_t declared = json_size(descriptor, "size", where);
        auto actual = store_.size(path);
        if (verify_ && actual && descriptor.contains("size") && *actual != declared)
            fail_input(store_.describe(path) + ": size " + std::to_string(*actual) +
                       " differs from the " + std::to_string(declared) +
                       " its descriptor declares");
        std::string bytes = store_.read_small(path);
        if (verify_) {
            std::string actual = sha256_digest(bytes);
            if (actual != digest)
                fail_input(store_.describe(path) + ": digest mismatch: expected " + digest +
                           ", content is " + actual);
        }
        return bytes;
    }

    void collect(const json& index, const std::string& where, const std::string& reference,
                 int depth, std::vector<Candidate>& out) {
        if (depth > max_layout_index_depth)
            fail_input(where + ": indexes nested deeper than 8 levels");
        auto manifests = index.find("manifests");
        if (!index.is_object() || manifests == index.end() || !manifests->is_array())
            fail_input(where + ": missing \"manifests\" array");
        for (const auto& descriptor : *manifests) {
            // Depth alone does not bound the walk: ten entries per level over
            // eight levels is 10^8 visits of a few KB of JSON.
            if (++visited_ > scan_limits().index_manifests)
                throw LimitExceeded("more than " + std::to_string(scan_limits().index_manifests) +
                                        " manifest descriptors in its nested indexes",
                                    "index-manifests")
                    .with_file(where);
            if (!descriptor.is_object())
                fail_input(where + ": manifest descriptor must be an object");
            std::string ref = reference;
            if (auto annotations = descriptor.find("annotations");
                ref.empty() && annotations != descriptor.end() && annotations->is_object())
                ref = annotations->value(ref_name_key, "");
            if (is_index(descriptor)) {
                std::string nested_where = store_.describe(
                    blob_path(json_string(descriptor, "digest", where, true), where));
                collect(parse_json(read_blob(descriptor, where), nested_where), nested_where, ref,
                        depth + 1, out);
                continue;
            }
            Candidate candidate{descriptor, ref, std::nullopt};
            if (auto platform = descriptor.find("platform");
                platform != descriptor.end() && platform->is_object()) {
                Platform p;
                p.os = platform->value("os", "");
                p.architecture = platform->value("architecture", "");
                p.variant = platform->value("variant", "");
                candidate.platform = p;
            }
            out.push_back(std::move(candidate));
        }
    }

private:
    BlobStore& store_;
    bool verify_;
    std::uint64_t visited_ = 0;
};

bool reference_matches(const std::string& ref, const std::string& wanted) {
    if (ref == wanted) return true;
    // ref.name is often just the tag ("latest", "v1"); accept "repo:tag" for it.
    auto colon = wanted.rfind(':');
    return colon != std::string::npos && ref == wanted.substr(colon + 1);
}

Candidate choose(std::vector<Candidate> candidates, const OpenOptions& options,
                 const std::string& where) {
    if (!options.image.empty()) {
        std::erase_if(candidates, [&](const Candidate& c) {
            return !reference_matches(c.reference, options.image);
        });
        if (candidates.empty())
            fail_usage(where + ": no image named '" + options.image + "' in the layout");
    }
    Platform wanted = options.platform.value_or(Platform{});
    bool any_platform = std::any_of(candidates.begin(), candidates.end(),
                                    [](const Candidate& c) { return c.platform.has_value(); });
    if (any_platform) {
        std::vector<std::string> seen;
        for (const auto& c : candidates)
            if (c.platform) seen.push_back(c.platform->str());
        std::erase_if(candidates, [&](const Candidate& c) {
            return c.platform && !c.platform->matches(wanted);
        });
        if (candidates.empty()) {
            std::string list;
            for (const auto& p : seen) list += (list.empty() ? "" : ", ") + p;
            fail_usage(where + ": no manifest for platform " + wanted.str() +
                       " (available: " + list + ")");
        }
    }
    if (candidates.size() > 1) {
        std::string refs;
        for (const auto& c : candidates)
            refs += (refs.empty() ? "" : ", ") +
                    (c.reference.empty() ? c.descriptor.value("digest", "?") : c.reference);
        fail_usage(where + ": holds " + std::to_string(candidates.size()) +
                   " images; choose one with --image (" + refs + ")");
    }
    return candidates.front();
}

}  // namespace

std::unique_ptr<Image> open_oci_layout(std::unique_ptr<BlobStore> store, const std::string& path,
                                       const std::string& format, const OpenOptions& options) {
    const std::string where = store->describe("index.json");
    OciReader reader(*store, options.verify_digests);
    std::vector<Candidate> candidates;
    reader.collect(parse_json(store->read_small("index.json"), where), where, "", 0, candidates);
    if (candidates.empty()) fail_input(where + ": lists no image manifest");
    Candidate chosen = choose(std::move(candidates), options, where);

    ImageInfo info;
    info.format = format;
    info.path = path;
    info.reference = chosen.reference;
    info.manifest_digest = json_string(chosen.descriptor, "digest", where, true);
    const std::string manifest_where = store->describe(blob_path(info.manifest_digest, where));
    json manifest = parse_json(reader.read_blob(chosen.descriptor, where), manifest_where);
    if (!manifest.is_object()) fail_input(manifest_where + ": manifest must be a JSON object");

    auto config = manifest.find("config");
    if (config == manifest.end() || !config->is_object())
        fail_input(manifest_where + ": missing \"config\"");
    info.config_digest = json_string(*config, "digest", manifest_where, true);
    const std::string config_where = store->describe(blob_path(info.config_digest, manifest_where));
    info.config = parse_config_text(reader.read_blob(*config, manifest_where), config_where);
    if (options.platform && !info.config.platform.matches(*options.platform))
        fail_usage(path + ": image is for " + info.config.platform.str() + ", not " +
                   options.platform->str());

    auto layers = manifest.find("layers");
    if (layers == manifest.end() || !layers->is_array())
        fail_input(manifest_where + ": missing \"layers\" array");
    std::vector<LayerCheck> checks;
    for (const auto& descriptor : *layers) {
        LayerInfo layer;
        layer.digest = json_string(descriptor, "digest", manifest_where, true);
        layer.blob = blob_path(layer.digest, manifest_where);
        layer.media_type = json_string(descriptor, "mediaType", manifest_where, false);
        auto size = store->size(layer.blob);
        if (!size) fail_input(store->describe(layer.blob) + ": missing layer blob");
        // Sizes are checked even with --no-verify: it costs nothing and stops
        // absurd declared sizes before anything trusts them.
        std::uint64_t declared = json_size(descriptor, "size", manifest_where);
        if (declared != *size)
            fail_input(store->describe(layer.blob) + ": size " + std::to_string(*size) +
                       " differs from the " + std::to_string(declared) + " the manifest declares");
        layer.size = *size;
        LayerCheck check;
        if (options.verify_digests) {
            // The blob digest covers the compressed bytes; the config's diff_id
            // covers what they decompress to, so both are checked (as docker load does).
            check.blob_digest = layer.digest;
            std::size_t index = info.layers.size();
            if (info.config.diff_ids.size() != layers->size())
                fail_input(config_where + ": lists " + std::to_string(info.config.diff_ids.size()) +
                           " diff_ids for " + std::to_string(layers->size()) + " layers");
            check.diff_id = info.config.diff_ids[index];
        }
        info.layers.push_back(std::move(layer));
        checks.push_back(std::move(check));
    }
    attach_history(info);
    return std::make_unique<LayeredImage>(std::move(store), std::move(info), std::move(checks));
}

}  // namespace cuvet::image
