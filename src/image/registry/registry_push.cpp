#include "image/registry/registry_push.hpp"

#include "cuvet/core/error.hpp"
#include "image/storage/sha256.hpp"

namespace cuvet::image {
namespace {

// The upload URL the registry hands out may be absolute or a path on it.
std::string absolute_location(const RegistryClient& client, const std::string& location) {
    if (location.rfind("http://", 0) == 0 || location.rfind("https://", 0) == 0) return location;
    return client.base_url() + (location.rfind('/', 0) == 0 ? "" : "/") + location;
}

bool blob_exists(RegistryClient& client, const std::string& digest) {
    try {
        client.get("/v2/" + client.reference().repository + "/blobs/" + digest,
                   {"Range: bytes=0-0"}, 0, "blob " + digest);
        return true;
    } catch (const Error&) {
        return false;  // absent (404) or unreadable: the upload below says which
    }
}

}  // namespace

void push_blob(RegistryClient& client, const std::string& digest, const std::string& bytes) {
    if (blob_exists(client, digest)) return;
    const std::string what = "upload of blob " + digest;
    auto started = client.send(
        "POST", client.base_url() + "/v2/" + client.reference().repository + "/blobs/uploads/", {},
        "", what);
    auto location = started->header("location");
    if (!location || location->empty())
        fail_input(client.name() + ": " + what + ": the registry gave no upload Location");
    std::string url = absolute_location(client, *location);
    url += (url.find('?') == std::string::npos ? "?" : "&") + std::string("digest=") +
           url_escape(digest);
    client.send("PUT", url, {"Content-Type: application/octet-stream"}, bytes, what);
}

std::string push_manifest(RegistryClient& client, const std::string& tag,
                          const std::string& media_type, const std::string& body) {
    auto response = client.send(
        "PUT", client.base_url() + "/v2/" + client.reference().repository + "/manifests/" + tag,
        {"Content-Type: " + media_type}, body, "manifest " + tag);
    return response->header("docker-content-digest").value_or(sha256_digest(body));
}

}  // namespace cuvet::image
