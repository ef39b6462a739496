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

// What manifest.json names for the one image an unnamed load reads, as paths in the archive.
struct DockerView {
    std::string config_path;
    std::vector<std::string> layer_paths;
};

std::optional<DockerView> read_docker_view(const BlobStore& store) {
    json manifest = json::parse(store.read_small("manifest.json"), nullptr, false);
    if (!manifest.is_array() || manifest.size() != 1 || !manifest[0].is_object()) return {};
    const std::string where = store.describe("manifest.json");
    auto config = manifest[0].find("Config");
    auto layers = manifest[0].find("Layers");
    if (config == manifest[0].end() || !config->is_string() || layers == manifest[0].end() ||
        !layers->is_array())
        return {};
    DockerView view;
    view.config_path = confined_path(config->get<std::string>(), where);
    for (const auto& layer : *layers) {
        if (!layer.is_string()) return {};
        view.layer_paths.push_back(confined_path(layer.get<std::string>(), where));
    }
    return view;
}

// A blob manifest.json names, by the digest of its bytes ("missing" when it is not there).
std::string content_digest(const BlobStore& store, const std::string& path) {
    return store.exists(path) ? sha256_digest(store.read_small(path)) : "missing";
}

// Compared by the blobs each view names, not by content: under --no-verify a blob both name
// is one image to both runtimes, whatever its bytes hash to. Done before the docker view is
// parsed: a config podman never reads must not decide the error.
std::string disagreement(const OciView& oci, const DockerView& docker, const BlobStore& store) {
    if (blob_of(oci.config_digest) != docker.config_path)
        return "index.json names config " + oci.config_digest + ", manifest.json config " +
               content_digest(store, docker.config_path) + " ('" + docker.config_path + "')";
    const auto& layers = docker.layer_paths;
    for (std::size_t i = 0; i < std::max(oci.layer_digests.size(), layers.size()); ++i) {
        if (i < oci.layer_digests.size() && i < layers.size() &&
            blob_of(oci.layer_digests[i]) == layers[i])
            continue;
        return "index.json names layer " + std::to_string(i + 1) + " " +
               (i < oci.layer_digests.size() ? oci.layer_digests[i] : "none") + ", manifest.json " +
               (i < layers.size() ? "'" + layers[i] + "'" : "none");
    }
    return {};
}

}  // namespace

std::unique_ptr<Image> open_docker25_archive(std::unique_ptr<BlobStore> store,
                                             const std::string& path, const OpenOptions& options) {
    // Only an archive that is one image either way: with --image the docker view is chosen by
    // tag, which an OCI reader without a name does not do.
    std::optional<OciView> oci = options.image.empty() ? read_oci_view(*store) : std::nullopt;
    std::optional<DockerView> docker = oci ? read_docker_view(*store) : std::nullopt;
    if (oci && docker) {
        std::string why = disagreement(*oci, *docker, *store);
        if (!why.empty())
            fail_input(path + ": " + why +
                       " (podman runs index.json's image, docker load manifest.json's)");
    }
    return open_docker_archive(std::move(store), path, options);
}

}  // namespace cuvet::image
