#pragma once
// Image references as docker and skopeo spell them: [HOST[:PORT]/]REPO[:TAG][@sha256:…].
#include <string>
#include <string_view>

namespace cuvet::image {

struct RegistryReference {
    std::string registry;    // "127.0.0.1:5000", "docker.io"
    std::string repository;  // "library/ubuntu"
    std::string tag;         // "latest" when neither tag nor digest is given
    std::string digest;      // "sha256:…" when pinned

    // The host the API lives on (Docker Hub's API is not on docker.io itself).
    std::string api_host() const;
    // "tag" or "sha256:…": what /v2/<repo>/manifests/<…> is asked for.
    std::string manifest_reference() const { return digest.empty() ? tag : digest; }
    // "127.0.0.1:5000/repo:tag", for messages.
    std::string str() const;
};

// Parses the part after "docker://"; throws a usage error on a malformed reference.
RegistryReference parse_registry_reference(std::string_view text);

// True when `text` reads as a reference rather than a file name: used for a
// bare REPO:TAG that names no file.
bool looks_like_reference(std::string_view text);

}  // namespace cuvet::image
