// `docker save` archives: manifest.json lists each image's config and layers,
// either as legacy "<id>/layer.tar" files or as "blobs/sha256/<hex>".
#include <regex>

#include "cuvet/core/error.hpp"
#include "image/config/config_parser.hpp"
#include "image/layers/layered_image.hpp"
#include "image/storage/sha256.hpp"
#include "image/transports/formats.hpp"

namespace cuvet::image {
namespace {

using nlohmann::json;

// The digest a path names, if it names one ("blobs/sha256/<hex>", "<hex>.json").
std::string digest_in_path(const std::string& path) {
    static const std::regex named(R"((?:^|/)(?:blobs/sha256/)?([0-9a-f]{64})(?:\.json)?$)");
    std::smatch match;
    if (std::regex_search(path, match, named)) return "sha256:" + match[1].str();
    return {};
}

std::vector<std::string> repo_tags(const json& entry) {
    std::vector<std::string> tags;
    if (auto it = entry.find("RepoTags"); it != entry.end() && it->is_array())
        for (const auto& tag : *it)
            if (tag.is_string()) tags.push_back(tag.get<std::string>());
    return tags;
}

bool tag_matches(const std::string& tag, const std::string& wanted) {
    return tag == wanted || tag == wanted + ":latest" || tag == "docker.io/" + wanted ||
           tag == "docker.io/library/" + wanted;
}

std::size_t choose_image(const json& manifest, const OpenOptions& options, const std::string& where,
                         std::vector<std::string>* all_tags) {
    for (const auto& entry : manifest)
        for (const auto& tag : repo_tags(entry)) all_tags->push_back(tag);
    if (options.image.empty()) {
        if (manifest.size() > 1) {
            std::string names;
            for (const auto& tag : *all_tags) names += (names.empty() ? "" : ", ") + tag;
            fail_usage(where + ": holds " + std::to_string(manifest.size()) +
                       " images; choose one with --image (" + names + ")");
        }
        return 0;
    }
    for (std::size_t i = 0; i < manifest.size(); ++i)
        for (const auto& tag : repo_tags(manifest[i]))
            if (tag_matches(tag, options.image)) return i;
    fail_usage(where + ": no image tagged '" + options.image + "' in the archive");
}

}  // namespace

std::unique_ptr<Image> open_docker_archive(std::unique_ptr<BlobStore> store,
                                           const std::string& path, const OpenOptions& options) {
    const std::string where = store->describe("manifest.json");
    json manifest = parse_json(store->read_small("manifest.json"), where);
    if (!manifest.is_array() || manifest.empty())
        fail_input(where + ": expected a non-empty JSON array of images");

    ImageInfo info;
    info.format = "docker-archive";
    info.path = path;
    std::vector<std::string> tags;
    const json& entry = manifest[choose_image(manifest, options, where, &tags)];
    auto own_tags = repo_tags(entry);
    if (!own_tags.empty()) info.reference = own_tags.front();
    for (const auto& tag : tags)
        if (tag != info.reference) info.other_images.push_back(tag);

    std::string config_path = confined_path(json_string(entry, "Config", where, true), where);
    std::string config_text = store->read_small(config_path);
    info.config_digest = sha256_digest(config_text);
    std::string named = digest_in_path(config_path);
    if (options.verify_digests && !named.empty() && named != info.config_digest)
        fail_input(store->describe(config_path) + ": digest mismatch: expected " + named +
                   ", content is " + info.config_digest);
    info.config = parse_config_text(config_text, store->describe(config_path));
    // One image per entry, no index to choose from: a platform it is not for is refused, as for
    // OCI.
    if (options.platform && !info.config.platform.matches(*options.platform))
        fail_usage(path + ": image is for " + info.config.platform.str() + ", not " +
                   options.platform->str());

    auto layers = entry.find("Layers");
    if (layers == entry.end() || !layers->is_array())
        fail_input(where + ": missing \"Layers\" array");
    const auto& diff_ids = info.config.diff_ids;
    if (options.verify_digests && diff_ids.size() != layers->size())
        fail_input(store->describe(config_path) + ": lists " + std::to_string(diff_ids.size()) +
                   " diff_ids for " + std::to_string(layers->size()) + " layers");
    std::vector<LayerCheck> checks;
    for (std::size_t i = 0; i < layers->size(); ++i) {
        if (!(*layers)[i].is_string())
            fail_input(where + ": \"Layers\" must be an array of strings");
        LayerInfo layer;
        layer.blob = confined_path((*layers)[i].get<std::string>(), where);
        auto size = store->size(layer.blob);
        if (!size) fail_input(store->describe(layer.blob) + ": missing layer blob");
        layer.size = *size;
        LayerCheck check;
        std::string blob_digest = digest_in_path(layer.blob);
        std::string diff_id = i < diff_ids.size() ? diff_ids[i] : "";
        layer.digest = blob_digest.empty() ? diff_id : blob_digest;
        if (options.verify_digests) {
            // The blob's name covers its bytes; the config's diff_id covers
            // what they decompress to. Both are checked (as docker load does),
            // or a config could describe other content than what is scanned.
            // Legacy layer.tar files are named by an id: only the diff_id applies.
            check.blob_digest = blob_digest;
            check.diff_id = diff_id;
        }
        info.layers.push_back(std::move(layer));
        checks.push_back(std::move(check));
    }
    attach_history(info);
    return std::make_unique<LayeredImage>(std::move(store), std::move(info), std::move(checks));
}

}  // namespace cuvet::image
