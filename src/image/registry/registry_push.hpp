#pragma once
// The push half of the distribution API, as far as an artifact of small
// blobs needs it: a blob in one PUT after the upload session's POST, then the
// manifest that names them. Layers of images are never pushed by cuvet.
#include <string>

#include "image/registry/registry_client.hpp"

namespace cuvet::image {

// Uploads `bytes` (its sha256 is `digest`) unless the registry already has it.
void push_blob(RegistryClient& client, const std::string& digest, const std::string& bytes);

// PUTs `body` as the manifest for `tag`; returns the digest the registry
// answers with (Docker-Content-Digest), or the body's sha256 when it says none.
std::string push_manifest(RegistryClient& client, const std::string& tag,
                          const std::string& media_type, const std::string& body);

}  // namespace cuvet::image
