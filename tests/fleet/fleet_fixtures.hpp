#pragma once
// What the fleet's registry tests share: CUDA bases, a nodes file with an old-driver pool,
// images pushed with cuvet's own push code (fast enough for hundreds), and the results folder.
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "image/registry/registry_client.hpp"
#include "image/registry/registry_push.hpp"
#include "support/cuda_image.hpp"
#include "support/image_writer.hpp"
#include "support/temp_dir.hpp"

namespace cuvet::test {

// A pool on the old 470 driver (T4) and one on 550 (H100), as GPU Feature Discovery labels them.
inline std::string two_pools() {
    using nlohmann::json;
    auto node = [](const std::string& name, const std::string& pool, const std::string& driver,
                   const std::string& major, const std::string& minor) {
        return json{{"kind", "Node"},
                    {"metadata",
                     {{"name", name},
                      {"labels",
                       {{"cloud.google.com/gke-nodepool", pool},
                        {"nvidia.com/cuda.driver-version.full", driver},
                        {"nvidia.com/gpu.compute.major", major},
                        {"nvidia.com/gpu.compute.minor", minor}}}}}};
    };
    return json{{"kind", "List"},
                {"items",
                 {node("t4-1", "t4-legacy", "470.57.02", "7", "5"),
                  node("h100-1", "h100", "550.54.15", "9", "0")}}}
        .dump();
}

// glibc and, unless `cuda` is empty, that CUDA toolkit: one layer.
inline Layer cuda_base(const std::string& cuda) {
    CudaImage image;
    image.glibc();
    if (!cuda.empty()) image.cuda_toolkit(cuda);
    REQUIRE(image.fs().error().empty());
    return image.layer();
}

// Pushes an encoded image as `repository:tag` to a plain-HTTP registry at `host`, blob by blob.
inline void push_encoded(const std::string& host, const std::string& repository_tag,
                         const EncodedImage& encoded) {
    image::Access access;
    access.insecure = true;
    image::RegistryClient client(image::parse_registry_reference(host + "/" + repository_tag),
                                 access, "pull,push");
    image::push_blob(client, encoded.config.digest, encoded.config.bytes);
    for (const auto& layer : encoded.layers) image::push_blob(client, layer.digest, layer.bytes);
    image::push_manifest(client, client.reference().tag, encoded.manifest.media_type,
                         encoded.manifest.bytes);
}

inline std::size_t result_files(const std::filesystem::path& dir) {
    std::size_t count = 0;
    if (!std::filesystem::exists(dir)) return 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        if (entry.path().filename().string().rfind("sha256-", 0) == 0) ++count;
    return count;
}

inline std::vector<nlohmann::json> results_in(const std::filesystem::path& dir) {
    std::vector<nlohmann::json> out;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        if (entry.path().filename().string().rfind("sha256-", 0) == 0)
            out.push_back(nlohmann::json::parse(read_file(entry.path())));
    return out;
}

}  // namespace cuvet::test
