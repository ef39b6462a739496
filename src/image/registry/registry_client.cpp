#include "image/registry/registry_client.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

#include "cuvet/core/error.hpp"
#include "cuvet/image/registry_stall.hpp"
#include "image/registry/token_realm.hpp"
#include "image/storage/sha256.hpp"

namespace cuvet::image {
namespace {

constexpr int max_attempts = 5;
constexpr int max_resumes = 3;
constexpr std::uint64_t manifest_limit = 4u << 20;
constexpr std::uint64_t config_limit = 64u << 20;
const char* const manifest_accept =
    "Accept: application/vnd.oci.image.index.v1+json, application/vnd.oci.image.manifest.v1+json, "
    "application/vnd.docker.distribution.manifest.list.v2+json, "
    "application/vnd.docker.distribution.manifest.v2+json";

// 200 ms doubling per attempt, or the server's Retry-After (capped: a
// registry asking for minutes is better reported than waited for).
void back_off(int attempt, HttpResponse* response) {
    auto wait = std::chrono::milliseconds(100 << std::min(attempt, 6));
    if (response) {
        if (auto after = response->header("retry-after")) {
            long seconds = std::atol(after->c_str());
            if (seconds > 0) wait = std::chrono::milliseconds(std::min(seconds, 10L) * 1000);
        }
    }
    std::this_thread::sleep_for(wait);
}

// "MANIFEST_UNKNOWN: manifest unknown" from the distribution API's error body.
std::string error_detail(HttpResponse& response) {
    auto body = response.read_body(64 * 1024);
    if (!body) return {};
    auto parsed = nlohmann::json::parse(*body, nullptr, false);
    if (!parsed.is_object()) return {};
    auto errors = parsed.find("errors");
    if (errors == parsed.end() || !errors->is_array() || errors->empty() ||
        !(*errors)[0].is_object())
        return {};
    const auto& first = (*errors)[0];
    std::string code = first.value("code", ""), message = first.value("message", "");
    if (code.empty()) return message;
    return message.empty() ? code : code + ": " + message;
}

// Where docker and podman look for a registry's private CA.
std::string ca_file_for(const std::string& host) {
    const char* home = std::getenv("HOME");
    for (std::string dir :
         {std::string("/etc/docker/certs.d/"), std::string("/etc/containers/certs.d/"),
          std::string(home ? home : "") + "/.config/containers/certs.d/"}) {
        std::string candidate = dir + host + "/ca.crt";
        if (access(candidate.c_str(), R_OK) == 0) return candidate;
    }
    const char* cert_file = std::getenv("SSL_CERT_FILE");
    return cert_file ? cert_file : "";
}

// A blob body of known size. A connection that drops mid-layer is picked up
// where it stopped with a Range request; what arrives is still checked
// against the digest as a whole by the caller.
class RegistryBlobSource : public ByteSource {
public:
    RegistryBlobSource(RegistryClient& client, std::string digest, std::uint64_t size)
        : client_(client), digest_(std::move(digest)), size_(size) {}

    std::size_t read(char* buffer, std::size_t capacity) override {
        while (true) {
            if (!response_) open();
            std::size_t got = response_->read(buffer, capacity);
            if (got > skip_) {
                got = discard(buffer, got);
                offset_ += got;
                if (offset_ > size_)
                    fail_input(where() + ": the registry sent more than the " +
                               std::to_string(size_) + " bytes the manifest declares");
                return got;
            }
            if (got > 0) {
                skip_ -= got;
                continue;
            }
            const std::string error = response_->transport_error();
            if (error.empty()) {
                if (offset_ < size_)
                    fail_input(where() + ": blob ends after " + std::to_string(offset_) +
                               " of the " + std::to_string(size_) + " bytes the manifest declares");
                return 0;
            }
            if (offset_ == size_) return 0;
            if (++resumes_ > max_resumes)
                fail_io(where() + ": download failed after " + std::to_string(offset_) + " of " +
                        std::to_string(size_) + " bytes: " + error);
            response_.reset();
            back_off(resumes_, nullptr);
        }
    }

private:
    std::string where() const { return client_.name() + ": blob " + digest_; }

    void open() {
        response_ = client_.get("/v2/" + client_.reference().repository + "/blobs/" + digest_, {},
                                offset_, "blob " + digest_);
        // A server that ignores Range answers 200 with the whole blob: the
        // bytes we already have are skipped.
        skip_ = offset_ > 0 && response_->status() == 200 ? offset_ : 0;
    }

    std::size_t discard(char* buffer, std::size_t got) {
        if (skip_ == 0) return got;
        std::size_t dropped = static_cast<std::size_t>(skip_);
        std::memmove(buffer, buffer + dropped, got - dropped);
        skip_ = 0;
        return got - dropped;
    }

    RegistryClient& client_;
    std::string digest_;
    std::uint64_t size_;
    std::uint64_t offset_ = 0;
    std::uint64_t skip_ = 0;
    int resumes_ = 0;
    std::unique_ptr<HttpResponse> response_;
};

}  // namespace

RegistryClient::RegistryClient(RegistryReference reference, const Access& access,
                               std::string actions)
    : reference_(std::move(reference)),
      insecure_(access.insecure),
      cross_host_auth_(access.cross_host_auth),
      timeout_seconds_(access.timeout_seconds),
      stall_seconds_(registry_stall_seconds()),
      actions_(std::move(actions)) {
    if (!access.username.empty())
        credentials_ = {access.username, access.password, "--username"};
    else
        credentials_ = stored_credentials(reference_.registry);
    tls_.verify = !insecure_;
    tls_.ca_file = ca_file_for(reference_.api_host());
    ping();
}

HttpRequest RegistryClient::request(const std::string& url, const std::vector<std::string>& headers,
                                    std::uint64_t range_from) {
    HttpRequest request;
    request.url = url;
    request.headers = headers;
    if (std::string auth = authorization(); !auth.empty()) request.headers.push_back(auth);
    request.range_from = range_from;
    request.tls = tls_;
    request.timeout_seconds = timeout_seconds_;
    stall_limits(request);
    return request;
}

std::string RegistryClient::authorization() {
    std::lock_guard lock(auth_mutex_);
    return authorization_;
}

void RegistryClient::ping() {
    const std::string host = reference_.api_host();
    base_url_ = "https://" + host;
    for (int attempt = 0;;) {
        HttpResponse response(request(base_url_ + "/v2/", {}, 0));
        long status = response.status();
        if (status == 0) {
            // --insecure also means "plain HTTP is fine", as skopeo's --tls-verify=false.
            if (response.tls_failed() && insecure_ && base_url_.rfind("https://", 0) == 0) {
                base_url_ = "http://" + host;
                continue;
            }
            if (response.tls_failed())
                fail_io(
                    name() + ": TLS with " + host + " failed: " + response.transport_error() +
                    " (a plain-HTTP or self-signed registry needs --insecure; a private CA goes in "
                    "/etc/docker/certs.d/" +
                    host + "/ca.crt or SSL_CERT_FILE)");
            if (!response.timed_out() && ++attempt < max_attempts) {
                back_off(attempt, nullptr);
                continue;
            }
            fail_io(name() + ": cannot reach " + host + ": " + response.transport_error());
        }
        if (status == 401) {
            authenticate(response.header("www-authenticate").value_or(""));
            return;
        }
        if ((status == 429 || status >= 500) && ++attempt < max_attempts) {
            back_off(attempt, &response);
            continue;
        }
        return;  // 200, or a registry that answers /v2/ oddly: the real requests will say more
    }
}

void RegistryClient::authenticate(const std::string& challenge_header) {
    auto challenge = parse_challenge(challenge_header);
    if (!challenge)
        fail_input(name() +
                   ": authentication required (HTTP 401) but the registry sent no WWW-Authenticate "
                   "challenge");
    const std::string basic =
        credentials_.empty() ? ""
                             : "Authorization: Basic " + base64_encode(credentials_.username + ":" +
                                                                       credentials_.password);
    if (challenge->scheme == "basic") {
        if (credentials_.empty())
            fail_input(name() + ": authentication required (HTTP 401): no credentials for " +
                       reference_.registry +
                       "; pass --username and --password-stdin, or docker login " +
                       reference_.registry);
        std::lock_guard lock(auth_mutex_);
        authorization_ = basic;
        return;
    }
    if (challenge->scheme != "bearer")
        fail_input(name() + ": unsupported authentication scheme '" + challenge->scheme + "'");
    std::string realm = challenge->params["realm"];
    if (realm.empty()) fail_input(name() + ": Bearer challenge without a realm");
    // The password goes to the token service only where it belongs (token_realm.hpp).
    const std::string withheld =
        credentials_.empty()
            ? ""
            : credentials_withheld(realm, reference_.api_host(), insecure_, cross_host_auth_);
    {
        std::lock_guard lock(auth_mutex_);  // workers re-authenticate on 401 concurrently
        withheld_ = withheld;
    }
    const std::string token_basic = withheld.empty() ? basic : "";
    std::string url = realm + (realm.find('?') == std::string::npos ? "?" : "&") +
                      "scope=" + url_escape("repository:" + reference_.repository + ":" + actions_);
    if (!challenge->params["service"].empty())
        url += "&service=" + url_escape(challenge->params["service"]);
    for (int attempt = 0;;) {
        HttpRequest token_request;
        token_request.url = url;
        token_request.tls = tls_;
        token_request.timeout_seconds = timeout_seconds_;
        stall_limits(token_request);
        if (!token_basic.empty()) token_request.headers.push_back(token_basic);
        HttpResponse response(token_request);
        long status = response.status();
        if (((status == 0 && !response.timed_out()) || status == 429 || status >= 500) &&
            ++attempt < max_attempts) {
            back_off(attempt, &response);
            continue;
        }
        if (status == 0)
            fail_io(name() + ": token service " + realm + ": " + response.transport_error());
        if (status == 401 || status == 403)
            fail_input(name() + ": the token service " + realm + " refused " +
                       (token_basic.empty() ? "anonymous access"
                                            : "the credentials from " + credentials_.source) +
                       " (HTTP " + std::to_string(status) + ")" + withheld_note());
        if (status != 200)
            fail_input(name() + ": token service " + realm + " answered HTTP " +
                       std::to_string(status));
        auto body = response.read_body(1 << 20);
        auto reply = nlohmann::json::parse(body.value_or(""), nullptr, false);
        std::string token;
        if (reply.is_object()) token = reply.value("token", reply.value("access_token", ""));
        if (token.empty()) fail_input(name() + ": token service " + realm + " sent no token");
        std::lock_guard lock(auth_mutex_);
        authorization_ = "Authorization: Bearer " + token;
        return;
    }
}

std::unique_ptr<HttpResponse> RegistryClient::get(const std::string& path,
                                                  const std::vector<std::string>& headers,
                                                  std::uint64_t range_from,
                                                  const std::string& what) {
    HttpRequest shape;
    shape.url = base_url_ + path;
    shape.headers = headers;
    shape.range_from = range_from;
    return exchange(shape, what);
}

std::unique_ptr<HttpResponse> RegistryClient::send(const std::string& method,
                                                   const std::string& url,
                                                   const std::vector<std::string>& headers,
                                                   const std::string& body,
                                                   const std::string& what) {
    HttpRequest shape;
    shape.url = url;
    shape.headers = headers;
    shape.method = method;
    shape.body = body;
    return exchange(shape, what);
}

std::unique_ptr<HttpResponse> RegistryClient::exchange(const HttpRequest& shape,
                                                       const std::string& what) {
    bool reauthenticated = false;
    for (int attempt = 0;;) {
        HttpRequest attempt_request = request(shape.url, shape.headers, shape.range_from);
        attempt_request.method = shape.method;
        attempt_request.body = shape.body;
        auto response = std::make_unique<HttpResponse>(attempt_request);
        long status = response->status();
        if (status == 0) {
            if (!response->timed_out() && ++attempt < max_attempts) {
                back_off(attempt, nullptr);
                continue;
            }
            fail_io(name() + ": " + what + ": " + response->transport_error());
        }
        // A token can expire during a long pull: one fresh challenge per request.
        if (status == 401 && !reauthenticated) {
            reauthenticated = true;
            authenticate(response->header("www-authenticate").value_or(""));
            continue;
        }
        if ((status == 429 || status >= 500) && ++attempt < max_attempts) {
            back_off(attempt, response.get());
            continue;
        }
        if (status >= 200 && status < 300) return response;
        fail_status(*response, status, what);
    }
}

void RegistryClient::fail_status(HttpResponse& response, long status, const std::string& what) {
    std::string detail = error_detail(response);
    std::string code = "HTTP " + std::to_string(status) + (detail.empty() ? "" : " " + detail);
    if (status == 401)
        fail_input(name() + ": authentication required (" + code + "): " +
                   (credentials_.empty()
                        ? "no credentials for " + reference_.registry +
                              "; pass --username and --password-stdin, or docker login " +
                              reference_.registry
                        : "the credentials from " + credentials_.source + " were refused") +
                   withheld_note());
    if (status == 403) fail_input(name() + ": access denied (" + code + ")" + withheld_note());
    if (status == 404) fail_input(name() + ": " + what + " not found (" + code + ")");
    if (status == 429 || status >= 500)
        fail_input(name() + ": " + what + ": registry still answers " + code + " after " +
                   std::to_string(max_attempts) + " attempts");
    fail_input(name() + ": " + what + ": unexpected " + code);
}

std::string RegistryClient::withheld_note() {
    std::lock_guard lock(auth_mutex_);
    if (withheld_.empty()) return {};
    return "; the credentials from " + credentials_.source + " were not sent: " + withheld_;
}

RegistryClient::Document RegistryClient::manifest(const std::string& tag_or_digest) {
    const std::string what = "manifest " + tag_or_digest;
    auto response = get("/v2/" + reference_.repository + "/manifests/" + tag_or_digest,
                        {manifest_accept}, 0, what);
    Document document;
    document.media_type = response->header("content-type").value_or("");
    if (auto semicolon = document.media_type.find(';'); semicolon != std::string::npos)
        document.media_type.resize(semicolon);
    auto body = response->read_body(manifest_limit);
    if (!body)
        fail_input(name() + ": " + what + " is larger than " + std::to_string(manifest_limit) +
                   " bytes");
    if (!response->transport_error().empty())
        fail_io(name() + ": " + what + ": " + response->transport_error());
    document.body = std::move(*body);
    return document;
}

std::unique_ptr<ByteSource> RegistryClient::open_blob(const std::string& digest,
                                                      std::uint64_t size) {
    return std::make_unique<RegistryBlobSource>(*this, digest, size);
}

std::string RegistryClient::small_blob(const std::string& digest, std::uint64_t size) {
    if (size > config_limit)
        fail_input(name() + ": blob " + digest + " declares " + std::to_string(size) +
                   " bytes; refusing");
    RegistryBlobSource source(*this, digest, size);
    std::string bytes = read_all(source, config_limit, name() + ": blob " + digest);
    std::string actual = sha256_digest(bytes);
    if (actual != digest)
        fail_input(name() + ": blob " + digest + ": digest mismatch: content is " + actual);
    return bytes;
}

}  // namespace cuvet::image
