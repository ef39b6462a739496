#pragma once
// One reader per on-disk format, behind the Image interface (bloaty model).
#include <filesystem>
#include <memory>

#include "cuvet/image/image.hpp"
#include "image/storage/blob_store.hpp"

namespace cuvet::image {

std::unique_ptr<Image> open_docker_archive(std::unique_ptr<BlobStore> store,
                                           const std::string& path, const OpenOptions& options);
// A docker archive that may also be an OCI layout (Docker 25+): refused when index.json and
// manifest.json name different images.
std::unique_ptr<Image> open_docker25_archive(std::unique_ptr<BlobStore> store,
                                             const std::string& path, const OpenOptions& options);
std::unique_ptr<Image> open_oci_layout(std::unique_ptr<BlobStore> store, const std::string& path,
                                       const std::string& format, const OpenOptions& options);
std::unique_ptr<Image> open_rootfs_dir(const std::filesystem::path& root,
                                       const OpenOptions& options);
// A directory is taken for a root file system only when it has one of the
// top-level directories an OS keeps its files in (usr, etc, bin, lib, opt…).
bool looks_like_root_fs(const std::filesystem::path& dir);
// `reference` without its "docker://" prefix.
std::unique_ptr<Image> open_registry_image(const std::string& reference,
                                           const OpenOptions& options);

}  // namespace cuvet::image
