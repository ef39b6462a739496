#pragma once
// HTTP over libcurl, pull-style: a response's body is read like any other
// ByteSource, so a layer streams from the socket into the inflater with no
// buffer larger than what one socket read delivers.
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "image/storage/byte_source.hpp"

namespace cuvet::image {

struct TlsOptions {
    bool verify = true;   // false: --insecure (self-signed certificates accepted)
    std::string ca_file;  // extra trust anchor (SSL_CERT_FILE, certs.d/ca.crt); empty: system CAs
};

struct HttpRequest {
    std::string url;
    std::vector<std::string> headers;  // "Name: value"
    std::string unix_socket;           // Docker/podman API: the socket the URL's host stands for
    std::uint64_t range_from = 0;      // >0: "Range: bytes=N-" (resuming a blob)
    TlsOptions tls;
    bool follow_redirects = true;  // blob storage often redirects to another host
    // Empty: GET. "POST"/"PUT" send `body` (pushing a blob or manifest).
    std::string method;
    std::string body;
    // Seconds the whole exchange (headers and body) may take; 0: no limit.
    // Past it the response throws an io error naming the URL: a server that
    // trickles bytes cannot keep cuvet waiting.
    unsigned timeout_seconds = 0;
    // Below `stall_bytes` a second for `stall_seconds`, the transfer fails
    // (timed_out()): a connection that carries (almost) nothing is dead.
    long stall_seconds = 60;
    long stall_bytes = 1;
};

// One response. Construction starts the transfer; status() waits for the
// final response's headers; read() streams its body.
class HttpResponse : public ByteSource {
public:
    explicit HttpResponse(const HttpRequest& request);
    ~HttpResponse() override;
    HttpResponse(const HttpResponse&) = delete;
    HttpResponse& operator=(const HttpResponse&) = delete;

    // The HTTP status, or 0 when the transfer failed before any response
    // (connection refused, TLS handshake); transport_error() then says why.
    long status();
    // Lower-cased header name → last value of the final response.
    const std::map<std::string, std::string>& headers();
    std::optional<std::string> header(const std::string& lower_name);
    // Bytes of the body; 0 at its end. After a complete read, transport_error()
    // is empty when the body arrived whole.
    std::size_t read(char* buffer, std::size_t capacity) override;
    // Empty, or curl's reason the transfer failed (also after headers arrived).
    const std::string& transport_error() const { return error_; }
    bool tls_failed() const { return tls_failed_; }
    // The transfer failed for a stall or the connect timeout, not a refusal.
    bool timed_out() const { return timed_out_; }
    // The body, whole, for JSON documents and error bodies; nullopt when it
    // is longer than `limit`.
    std::optional<std::string> read_body(std::uint64_t limit);

private:
    struct Transfer;
    bool pump();  // runs curl until something happened; false once the transfer is over
    // Waits for curl's sockets up to a second, never past the deadline (which throws).
    void wait();
    std::unique_ptr<Transfer> transfer_;
    std::string url_;
    unsigned timeout_seconds_ = 0;
    std::chrono::steady_clock::time_point deadline_;
    std::string error_;
    bool tls_failed_ = false;
    bool timed_out_ = false;
};

// "Basic base64(user:password)".
std::string base64_encode(const std::string& bytes);
std::string base64_decode(const std::string& text);
// %-escapes a query parameter value.
std::string url_escape(const std::string& text);

}  // namespace cuvet::image
