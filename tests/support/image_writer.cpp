#include "support/image_writer.hpp"

#include <fstream>
#include <stdexcept>
#include <system_error>

namespace cuvet::test {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* oci_manifest_type = "application/vnd.oci.image.manifest.v1+json";
constexpr const char* oci_index_type = "application/vnd.oci.image.index.v1+json";
constexpr const char* oci_config_type = "application/vnd.oci.image.config.v1+json";

Blob make_blob(std::string bytes, std::string media_type) {
    Blob blob;
    blob.digest = "sha256:" + sha256_hex(bytes);
    blob.bytes = std::move(bytes);
    blob.media_type = std::move(media_type);
    return blob;
}

std::string layer_media_type(const Layer& layer) {
    if (!layer.media_type.empty()) return layer.media_type;
    switch (layer.compression) {
        case Compression::none:
            return "application/vnd.oci.image.layer.v1.tar";
        case Compression::gzip:
            return "application/vnd.oci.image.layer.v1.tar+gzip";
        case Compression::zstd:
            return "application/vnd.oci.image.layer.v1.tar+zstd";
    }
    return "";
}

json descriptor(const Blob& blob) {
    return json{
        {"mediaType", blob.media_type}, {"digest", blob.digest}, {"size", blob.bytes.size()}};
}

json platform_json(const ImageSpec& spec) {
    json platform{{"architecture", spec.architecture}, {"os", spec.os}};
    if (!spec.variant.empty()) platform["variant"] = spec.variant;
    return platform;
}

json config_json(const ImageSpec& spec, const std::vector<std::string>& diff_ids) {
    json config{{"Env", spec.env}};
    if (!spec.entrypoint.empty()) config["Entrypoint"] = spec.entrypoint;
    if (!spec.cmd.empty()) config["Cmd"] = spec.cmd;
    if (!spec.working_dir.empty()) config["WorkingDir"] = spec.working_dir;
    if (!spec.user.empty()) config["User"] = spec.user;
    if (!spec.labels.empty()) config["Labels"] = spec.labels;

    json history = json::array();
    for (const auto& layer : spec.layers) {
        for (const auto& line : layer.empty_history_before)
            history.push_back(
                {{"created", spec.created}, {"created_by", line}, {"empty_layer", true}});
        history.push_back({{"created", spec.created}, {"created_by", layer.created_by}});
    }
    json out{{"architecture", spec.architecture},
             {"os", spec.os},
             {"created", spec.created},
             {"config", config},
             {"rootfs", {{"type", "layers"}, {"diff_ids", diff_ids}}},
             {"history", history}};
    if (!spec.variant.empty()) out["variant"] = spec.variant;
    return out;
}

void write_bytes(const fs::path& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace

EncodedImage encode_image(const ImageSpec& spec) {
    EncodedImage image;
    for (const auto& layer : spec.layers) {
        std::string blob_bytes, diff_id;
        if (layer.raw_blob) {
            blob_bytes = *layer.raw_blob;
            diff_id = "sha256:" + sha256_hex(blob_bytes);
        } else {
            std::string tar = make_tar(layer.entries);
            diff_id = "sha256:" + sha256_hex(tar);
            blob_bytes = compress(tar, layer.compression);
        }
        image.layers.push_back(make_blob(std::move(blob_bytes), layer_media_type(layer)));
        image.diff_ids.push_back(diff_id);
    }
    image.config = make_blob(config_json(spec, image.diff_ids).dump(), oci_config_type);
    json manifest{{"schemaVersion", 2},
                  {"mediaType", oci_manifest_type},
                  {"config", descriptor(image.config)},
                  {"layers", json::array()}};
    for (const auto& layer : image.layers) manifest["layers"].push_back(descriptor(layer));
    image.manifest = make_blob(manifest.dump(), oci_manifest_type);
    return image;
}

void ImageFiles::write_dir(const fs::path& dir) const {
    fs::create_directories(dir);
    for (const auto& d : directories) fs::create_directories(dir / d);
    for (const auto& [path, bytes] : files) {
        fs::create_directories((dir / path).parent_path());
        write_bytes(dir / path, bytes);
    }
}

void ImageFiles::write_tar(const fs::path& tar_path, Compression compression) const {
    std::vector<TarEntry> entries;
    std::set<std::string> dirs_done;
    auto add_parents = [&](const std::string& path) {
        for (auto slash = path.find('/'); slash != std::string::npos;
             slash = path.find('/', slash + 1)) {
            std::string parent = path.substr(0, slash + 1);
            if (dirs_done.insert(parent).second) entries.push_back(dir(parent));
        }
    };
    for (const auto& d : directories) {
        add_parents(d + "/");
    }
    for (const auto& [path, bytes] : files) {
        add_parents(path);
        entries.push_back(file(path, bytes));
    }
    if (tar_path.has_parent_path()) fs::create_directories(tar_path.parent_path());
    write_bytes(tar_path, compress(make_tar(entries), compression));
}

void ImageFiles::edit_json(const std::string& path, const std::function<void(json&)>& edit) {
    auto it = files.find(path);
    if (it == files.end()) throw std::runtime_error("edit_json: no file " + path);
    json doc = json::parse(it->second);
    edit(doc);
    it->second = doc.dump();
}

void ImageFiles::flip_byte(const std::string& path) {
    auto it = files.find(path);
    if (it == files.end() || it->second.empty())
        throw std::runtime_error("flip_byte: no file " + path);
    it->second[it->second.size() / 2] ^= 0x5a;
}

void ImageFiles::truncate(const std::string& path, std::size_t keep) {
    auto it = files.find(path);
    if (it == files.end()) throw std::runtime_error("truncate: no file " + path);
    it->second.resize(std::min(keep, it->second.size()));
}

void ImageFiles::remove(const std::string& path) {
    if (!files.erase(path)) throw std::runtime_error("remove: no file " + path);
}

void ImageFiles::replace_with_directory(const std::string& path) {
    remove(path);
    directories.insert(path);
}

// Docker names a legacy layer directory by a chain id of its content and parent.
static std::string legacy_layer_id(const std::string& diff_id, const std::string& parent) {
    return sha256_hex(parent + " " + diff_id);
}

static json docker_repositories(const std::vector<std::string>& tags, const std::string& top) {
    json repositories = json::object();
    for (const auto& tag : tags) {
        auto colon = tag.rfind(':');
        if (colon == std::string::npos) continue;
        repositories[tag.substr(0, colon)][tag.substr(colon + 1)] = top;
    }
    return repositories;
}

ImageFiles docker_archive(const std::vector<ImageSpec>& images, DockerLayout layout) {
    ImageFiles out;
    json manifest = json::array();
    json repositories = json::object();
    json index{{"schemaVersion", 2}, {"mediaType", oci_index_type}, {"manifests", json::array()}};
    for (const auto& spec : images) {
        EncodedImage image = encode_image(spec);
        ImageFiles::Parts parts;
        parts.manifest = "manifest.json";
        std::string top;
        if (layout == DockerLayout::legacy) {
            parts.config = image.config.hex() + ".json";
            std::string parent;
            for (std::size_t i = 0; i < image.layers.size(); ++i) {
                std::string id = legacy_layer_id(image.diff_ids[i], parent);
                json layer_json{{"id", id}, {"created", spec.created}, {"os", spec.os}};
                if (!parent.empty()) layer_json["parent"] = parent;
                out.files[id + "/VERSION"] = "1.0";
                out.files[id + "/json"] = layer_json.dump();
                out.files[id + "/layer.tar"] = image.layers[i].bytes;
                parts.layers.push_back(id + "/layer.tar");
                parent = top = id;
            }
        } else {
            parts.config = "blobs/sha256/" + image.config.hex();
            for (const auto& layer : image.layers) {
                out.files["blobs/sha256/" + layer.hex()] = layer.bytes;
                parts.layers.push_back("blobs/sha256/" + layer.hex());
            }
            out.files["blobs/sha256/" + image.manifest.hex()] = image.manifest.bytes;
            json entry = descriptor(image.manifest);
            if (!spec.repo_tags.empty())
                entry["annotations"] = {
                    {"io.containerd.image.name", spec.repo_tags.front()},
                    {"org.opencontainers.image.ref.name",
                     spec.repo_tags.front().substr(spec.repo_tags.front().rfind(':') + 1)}};
            index["manifests"].push_back(entry);
            top = image.config.hex();
        }
        out.files[parts.config] = image.config.bytes;
        manifest.push_back(
            {{"Config", parts.config}, {"RepoTags", spec.repo_tags}, {"Layers", parts.layers}});
        repositories.update(docker_repositories(spec.repo_tags, top));
        out.images.push_back(std::move(parts));
    }
    out.files["manifest.json"] = manifest.dump();
    if (!repositories.empty()) out.files["repositories"] = repositories.dump();
    if (layout == DockerLayout::blobs) {
        out.files["index.json"] = index.dump();
        out.files["oci-layout"] = json{{"imageLayoutVersion", "1.0.0"}}.dump();
    }
    return out;
}

OciEntry oci_image(ImageSpec spec, std::string ref_name, bool with_platform) {
    OciEntry entry;
    entry.image = std::move(spec);
    entry.ref_name = std::move(ref_name);
    entry.with_platform = with_platform;
    return entry;
}

OciEntry oci_index(std::vector<OciEntry> children, std::string ref_name) {
    OciEntry entry;
    entry.children = std::move(children);
    entry.ref_name = std::move(ref_name);
    return entry;
}

// Writes the blobs an entry needs and returns the descriptor that points at it.
static json add_oci_entry(ImageFiles& out, const OciEntry& entry) {
    json desc;
    if (entry.image) {
        EncodedImage image = encode_image(*entry.image);
        ImageFiles::Parts parts;
        parts.manifest = "blobs/sha256/" + image.manifest.hex();
        parts.config = "blobs/sha256/" + image.config.hex();
        out.files[parts.manifest] = image.manifest.bytes;
        out.files[parts.config] = image.config.bytes;
        for (const auto& layer : image.layers) {
            out.files["blobs/sha256/" + layer.hex()] = layer.bytes;
            parts.layers.push_back("blobs/sha256/" + layer.hex());
        }
        out.images.push_back(std::move(parts));
        desc = descriptor(image.manifest);
        if (entry.with_platform) desc["platform"] = platform_json(*entry.image);
    } else {
        json index{
            {"schemaVersion", 2}, {"mediaType", oci_index_type}, {"manifests", json::array()}};
        for (const auto& child : entry.children)
            index["manifests"].push_back(add_oci_entry(out, child));
        Blob blob = make_blob(index.dump(), oci_index_type);
        out.files["blobs/sha256/" + blob.hex()] = blob.bytes;
        desc = descriptor(blob);
    }
    if (!entry.ref_name.empty())
        desc["annotations"] = {{"org.opencontainers.image.ref.name", entry.ref_name}};
    return desc;
}

ImageFiles oci_layout(const std::vector<OciEntry>& top_level) {
    ImageFiles out;
    json index{{"schemaVersion", 2}, {"mediaType", oci_index_type}, {"manifests", json::array()}};
    for (const auto& entry : top_level) index["manifests"].push_back(add_oci_entry(out, entry));
    out.files["index.json"] = index.dump();
    out.files["oci-layout"] = json{{"imageLayoutVersion", "1.0.0"}}.dump();
    return out;
}

void write_rootfs(const fs::path& root, const std::vector<TarEntry>& entries) {
    fs::create_directories(root);
    for (const auto& entry : entries) {
        fs::path path = root / entry.name;
        fs::create_directories(path.parent_path());
        switch (entry.type) {
            case TarEntry::Type::regular:
                write_bytes(path, entry.data);
                fs::permissions(path, static_cast<fs::perms>(entry.mode & 07777));
                break;
            case TarEntry::Type::directory:
                fs::create_directories(path);
                fs::permissions(path, static_cast<fs::perms>(entry.mode & 07777));
                break;
            case TarEntry::Type::symlink:
                fs::create_symlink(entry.link_target, path);
                break;
            case TarEntry::Type::hardlink:
                fs::create_hard_link(root / entry.link_target, path);
                break;
            case TarEntry::Type::fifo:
            case TarEntry::Type::char_device:
                throw std::runtime_error("write_rootfs: fifos and devices are not supported");
        }
    }
}

}  // namespace cuvet::test
