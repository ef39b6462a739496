#pragma once
// Every way to name an image, in one table (as containers/image's transports
// and go-containerregistry's name parsing): a transport's name, how a
// reference is recognised as its own, and how it is opened. open_image asks
// the rows in order; the first that recognises the reference opens it.
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "cuvet/image/image.hpp"

namespace cuvet::image {

// A reference as the user typed it, with what the file system says of it
// (asked once): a prefixed reference is never a path, but asking is harmless.
struct Reference {
    std::string text;
    std::filesystem::path path;
    std::filesystem::file_status status;
    bool missing = true;  // no file there, or its status could not be read
};

struct Transport {
    std::string_view name;    // "docker", "docker-daemon", "dir", … (docs/architecture.md)
    std::string_view prefix;  // "docker://"; empty for a transport recognised by what the path is
    // Whether `reference` is this transport's: its prefix, or what is at the path.
    // Null for a prefixed transport: its prefix is how it is recognised.
    bool (*recognises)(const Reference& reference);
    // `name` is the reference without the prefix (the whole text when there is none).
    std::unique_ptr<Image> (*open)(const Reference& reference, const std::string& name,
                                   const OpenOptions& options);
};

// The transports in the order they are asked: prefixes first, then a
// directory, a file, and last a bare REPO:TAG that names no file.
std::span<const Transport> transports();

}  // namespace cuvet::image
