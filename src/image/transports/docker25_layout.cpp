// Docker 25+ writes `docker save` archives that are also OCI layouts: manifest.json beside
// index.json. docker load runs what manifest.json names; podman tries the OCI view first and
// runs what index.json names. cuvet reads manifest.json, so where the two views name another
// config or other layers the verdict would be about an image one of the runtimes does not run:
// such an archive is refused.
#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cuvet/core/error.hpp"
#include "image/storage/blob_store.hpp"
#include "image/storage/sha256.hpp"
#include "image/transports/formats.hpp"

namespace cuvet::image {
namespace {

using nlohmann::json;

struct OciView {
    std::string config_digest;
    std::vector<std::string> layer_digests;
};

std::string blob_of(const std::string& digest) { return "blobs/sha256/" + digest.substr(7); }

std::optional<json> read_json_member(const BlobStore& store, const std::string& path) {
    if (!store.exists(path)) return std::nullopt;
    json parsed = json::parse(store.read_small(path), nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object()) return std::nullopt;
    return parsed;
}

std::optional<std::string> digest_of(const json& descriptor) {
    if (!descriptor.is_object()) return std::nullopt;
    auto digest = descriptor.find("digest");
    if (digest == descriptor.end() || !digest->is_string() ||
        !is_valid_sha256_digest(digest->get<std::string>()))
        return std::nullopt;
    return digest->get<std::string>();
}

// The image index.json names, as an OCI reader finds it: one manifest, read from its blob.
// nullopt where that reading fails (several manifests, a missing or malformed blob): podman
// then falls back to the docker view, so only manifest.json's image can run.
std::optional<OciView> read_oci_view(const BlobStore& store) {
    auto index = read_json_member(store, "index.json");
    if (!index) return std::nullopt;
    auto manifests = index->find("manifests");
    if (manifests == index->end() || !manifests->is_array() || manifests->size() != 1)
        return std::nullopt;
    auto manifest_digest = digest_of((*manifests)[0]);
    if (!manifest_digest) return std::nullopt;
    auto manifest = read_json_member(store, blob_of(*manifest_digest));
    if (!manifest || !manifest->contains("config") || !manifest->contains("layers") ||
        !(*manifest)["layers"].is_array())
        return std::nullopt;
    OciView view;
    auto config = digest_of((*manifest)["config"]);
    if (!config || !store.exists(blob_of(*config))) return std::nullopt;
    view.config_digest = *config;
    for (const auto& layer : (*manifest)["layers"]) {
        auto digest = digest_of(layer);
        if (!digest) return std::nullopt;
        view.layer_digests.push_back(*digest);
    }
    return view;
}

// manifest.json's config path, when it holds the one image an unnamed load reads.
std::optional<std::string> docker_config_path(const BlobStore& store) {
    json manifest = json::parse(store.read_small("manifest.json"), nullptr, false);
    if (!manifest.is_array() || manifest.size() != 1 || !manifest[0].is_object()) return {};
    auto config = manifest[0].find("Config");
    if (config == manifest[0].end() || !config->is_string()) return {};
    return confined_path(config->get<std::string>(), store.describe("manifest.json"));
}

// Compared by the blobs each view names, not by content: under --no-verify a blob both name
// is one image to both runtimes, whatever its bytes hash to.
std::string disagreement(const OciView& oci, const std::string& config_path,
                         const ImageInfo& docker) {
    if (blob_of(oci.config_digest) != config_path)
        return "index.json names config " + oci.config_digest + ", manifest.json config " +
               docker.config_digest + " ('" + config_path + "')";
    for (std::size_t i = 0; i < std::max(oci.layer_digests.size(), docker.layers.size()); ++i) {
        std::string from_index = i < oci.layer_digests.size() ? oci.layer_digests[i] : "none";
        std::string from_manifest = i < docker.layers.size() ? docker.layers[i].digest : "none";
        bool same = i < oci.layer_digests.size() && i < docker.layers.size() &&
                    blob_of(oci.layer_digests[i]) == docker.layers[i].blob;
        if (!same)
            return "index.json names layer " + std::to_string(i + 1) + " " + from_index +
                   ", manifest.json " + from_manifest;
    }
    return {};
}

}  // namespace

std::unique_ptr<Image> open_docker25_archive(std::unique_ptr<BlobStore> store,
                                             const std::string& path, const OpenOptions& options) {
    // Only an archive that is one image either way: with --image the docker view is chosen by
    // tag, which an OCI reader without a name does not do.
    std::optional<OciView> oci = options.image.empty() ? read_oci_view(*store) : std::nullopt;
    std::optional<std::string> config_path = oci ? docker_config_path(*store) : std::nullopt;
    auto image = open_docker_archive(std::move(store), path, options);
    if (oci && config_path) {
        std::string why = disagreement(*oci, *config_path, image->info());
        if (!why.empty())
            fail_input(path + ": " + why +
                       " (podman runs index.json's image, docker load manifest.json's)");
    }
    return image;
}

}  // namespace cuvet::image
