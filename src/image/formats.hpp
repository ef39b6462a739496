#pragma once
// One reader per on-disk format, behind the Image interface (bloaty model).
#include <filesystem>
#include <memory>

#include "blob_store.hpp"
#include "cuvet/image/image.hpp"

namespace cuvet::image {

std::unique_ptr<Image> open_docker_archive(std::unique_ptr<BlobStore> store, const std::string& path,
                                           const OpenOptions& options);
std::unique_ptr<Image> open_oci_layout(std::unique_ptr<BlobStore> store, const std::string& path,
                                       const std::string& format, const OpenOptions& options);
std::unique_ptr<Image> open_rootfs_dir(const std::filesystem::path& root);
// `reference` without its "docker://" prefix.
std::unique_ptr<Image> open_registry_image(const std::string& reference, const OpenOptions& options);

}  // namespace cuvet::image
