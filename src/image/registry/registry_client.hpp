#pragma once
// One repository on one registry, spoken to through the OCI distribution API:
// scheme and TLS decided once (GET /v2/), auth from the challenge, retries
// with backoff on 429 and 5xx, and errors that name the reference.
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "cuvet/image/image.hpp"
#include "image/registry/http_client.hpp"
#include "image/registry/registry_auth.hpp"
#include "image/registry/registry_reference.hpp"
#include "image/storage/byte_source.hpp"

namespace cuvet::image {

class RegistryClient {
public:
    // `actions`: the token scope asked for, "pull" or "pull,push" (registry_push.hpp).
    RegistryClient(RegistryReference reference, const Access& access, std::string actions = "pull");

    struct Document {
        std::string body;
        std::string media_type;  // Content-Type
    };
    // A manifest or index by tag or digest (never more than a few MB).
    Document manifest(const std::string& tag_or_digest);
    // A blob as a stream of exactly `size` bytes; a dropped connection is
    // resumed with a Range request. The digest is checked by the caller
    // (read_layer's VerifyingSource), as for every other format.
    std::unique_ptr<ByteSource> open_blob(const std::string& digest, std::uint64_t size);
    // A small blob (the config), read whole and checked against its digest.
    std::string small_blob(const std::string& digest, std::uint64_t size);

    const RegistryReference& reference() const { return reference_; }
    // "docker://127.0.0.1:5000/repo:tag", the name in every message.
    std::string name() const { return "docker://" + reference_.str(); }

    // GET base_url + path, after auth and retries; the response is 2xx or 206.
    std::unique_ptr<HttpResponse> get(const std::string& path,
                                      const std::vector<std::string>& headers,
                                      std::uint64_t range_from, const std::string& what);
    // `method` ("POST", "PUT") `url` (base_url() + path, or an upload Location) with
    // `body`, after auth and retries; the response is 2xx.
    std::unique_ptr<HttpResponse> send(const std::string& method, const std::string& url,
                                       const std::vector<std::string>& headers,
                                       const std::string& body, const std::string& what);
    // "https://host:port" (or http:// with --insecure), decided when the client was made.
    const std::string& base_url() const { return base_url_; }

private:
    std::unique_ptr<HttpResponse> exchange(const HttpRequest& shape, const std::string& what);
    void ping();
    void authenticate(const std::string& challenge_header);
    std::string authorization();
    HttpRequest request(const std::string& url, const std::vector<std::string>& headers,
                        std::uint64_t range_from);
    std::string withheld_note();  // "; the credentials … were not sent: …", or empty
    [[noreturn]] void fail_status(HttpResponse& response, long status, const std::string& what);

    RegistryReference reference_;
    Credentials credentials_;
    TlsOptions tls_;
    bool insecure_ = false;
    bool cross_host_auth_ = false;
    unsigned timeout_seconds_ = 0;
    unsigned stall_seconds_ = 30;
    // A registry request fails once it carries under 1 KiB/s for stall_seconds_.
    void stall_limits(HttpRequest& request) const {
        request.stall_seconds = static_cast<long>(stall_seconds_);
        request.stall_bytes = 1024;
    }
    // Why the credentials were not sent to the token realm; empty when they were (or none exist).
    std::string withheld_;
    std::string base_url_;  // "https://host:port"
    std::mutex auth_mutex_;
    std::string authorization_;  // "Authorization: …" or empty
    std::string actions_;        // token scope: "pull", or "pull,push" to push
};

}  // namespace cuvet::image
