#pragma once
// How to reach an image that is not a file: credentials and TLS policy for
// registries (docker://…). Kept apart from OpenOptions, which says which
// image to read, not how to get at it.
#include <filesystem>
#include <memory>
#include <string>

#include "cuvet/image/image.hpp"

namespace cuvet::image {

struct Access {
    std::string username;  // --username; the password from --password-stdin
    std::string password;
    bool insecure = false;  // --insecure: plain HTTP, or TLS without verification
};

// open_image() with credentials; without them a registry is asked with what
// docker's config.json (or podman's auth.json) holds, or anonymously.
std::unique_ptr<Image> open_image(const std::filesystem::path& path, const OpenOptions& options,
                                  const Access& access);

}  // namespace cuvet::image
