#pragma once
// A generated docker archive before it becomes bytes: raw layer members, the run config as
// ordered JSON members (duplicate and case-folded keys survive, which no JSON DOM keeps) and
// how the outer tar names its members. write_hostile_archive turns it into the file podman
// loads and cuvet reads.
#include <filesystem>
#include <string>
#include <vector>

#include "parity/hostile_tar.hpp"
#include "support/image_writer.hpp"
#include "support/temp_dir.hpp"

namespace cuvet::test::parity {

// One member of the config's "config" object: the key and the value as JSON text, both
// written exactly as given (escapes included).
struct ConfigMember {
    std::string key;
    std::string value_json;
};

struct HostileImage {
    std::vector<std::vector<RawEntry>> layers;
    std::vector<ConfigMember> run_config;
    // Outer member i is named with outer_namings[i % size]; empty: plain.
    std::vector<Naming> outer_namings;
    // An outer member written a second time (after all others), and with which bytes.
    std::string duplicated_member;
    std::string duplicate_bytes;
    bool duplicate_keeps_bytes = true;
    // Docker 25+ layout: its index.json and OCI manifest still name the config as first
    // written, so manifest.json (docker load's view) and index.json (podman's) disagree.
    bool stale_oci_index = false;
    std::vector<std::string> mutations;  // what the generator did, in order
};

namespace hostile_image_detail {

inline std::string config_text(const std::vector<std::string>& diff_ids,
                               const std::vector<ConfigMember>& run_config) {
    std::string ids;
    for (const auto& id : diff_ids) ids += (ids.empty() ? "\"" : ",\"") + id + "\"";
    std::string members;
    for (const auto& member : run_config)
        members += (members.empty() ? "\"" : ",\"") + member.key + "\":" + member.value_json;
    return R"({"architecture":"amd64","os":"linux","rootfs":{"type":"layers","diff_ids":[)" + ids +
           R"(]},"config":{)" + members + "}}";
}

}  // namespace hostile_image_detail

// Writes `image` as a docker archive (uncompressed layers) tagged `tag`.
inline std::filesystem::path write_hostile_archive(const HostileImage& image,
                                                   const std::filesystem::path& path,
                                                   const std::string& tag) {
    ImageSpec spec;
    spec.repo_tags = {tag};
    std::vector<std::string> diff_ids;
    for (const auto& entries : image.layers) {
        Layer layer;
        layer.raw_blob = encode_tar(entries);  // uncompressed: the blob is its own diff_id
        layer.created_by = "RUN generated";
        diff_ids.push_back("sha256:" + sha256_hex(*layer.raw_blob));
        spec.layers.push_back(std::move(layer));
    }
    ImageFiles files =
        docker_archive({spec}, image.stale_oci_index ? DockerLayout::blobs : DockerLayout::legacy);
    files.files["config.json"] = hostile_image_detail::config_text(diff_ids, image.run_config);
    files.edit_json("manifest.json", [](nlohmann::json& m) { m[0]["Config"] = "config.json"; });

    std::string tar;
    std::size_t index = 0;
    for (const auto& [name, bytes] : files.files) {
        RawEntry member;
        member.name = name;
        member.data = bytes;
        if (!image.outer_namings.empty())
            member.naming = image.outer_namings[index++ % image.outer_namings.size()];
        tar += encode_member(member);
    }
    if (auto it = files.files.find(image.duplicated_member); it != files.files.end()) {
        RawEntry again;
        again.name = it->first;
        again.data = image.duplicate_keeps_bytes ? it->second : image.duplicate_bytes;
        tar += encode_member(again);
    }
    tar += std::string(1024, '\0');
    write_file(path, tar);
    return path;
}

}  // namespace cuvet::test::parity
