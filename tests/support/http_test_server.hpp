#pragma once
// A tiny HTTP/1.1 server on 127.0.0.1 for registry tests: it plays the token
// service, and stands in front of a real docker-registry to inject the faults
// a network makes (a connection cut mid-layer, 429s). One request per
// connection; every response closes it.
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace cuvet::test {

struct HttpRequestHead {
    std::string method;
    std::string target;                          // "/v2/repo/blobs/sha256:…"
    std::map<std::string, std::string> headers;  // lower-case names
};

struct HttpAction {
    // Set: answer with these raw bytes. Unset: forward to the upstream port.
    std::optional<std::string> response;
    // Forwarding: close the connection after this many bytes of the response.
    std::optional<std::size_t> cut_after;
    // Runs just before the cut (e.g. kills the registry).
    std::function<void()> before_cut;
    // With `response`: after its first `trickle_after` bytes, the rest goes one
    // byte per `trickle_every` (a registry that never quite stalls).
    std::size_t trickle_after = 0;
    std::chrono::milliseconds trickle_every{0};
};

class HttpTestServer {
public:
    using Handler = std::function<HttpAction(const HttpRequestHead&)>;
    explicit HttpTestServer(Handler handler, int upstream_port = 0);
    ~HttpTestServer();
    HttpTestServer(const HttpTestServer&) = delete;
    HttpTestServer& operator=(const HttpTestServer&) = delete;
    int port() const { return port_; }

private:
    void accept_loop();
    void serve(int client);
    void trickle(int client, const std::string& response, std::size_t after,
                 std::chrono::milliseconds every);
    Handler handler_;
    int upstream_port_;
    int listener_ = -1;
    int port_ = 0;
    std::atomic<bool> stop_{false};
    std::thread acceptor_;
    std::mutex mutex_;
    std::vector<std::thread> connections_;
};

// "HTTP/1.1 <status> X\r\n<headers>\r\nContent-Length: …\r\nConnection: close\r\n\r\n<body>"
std::string http_response(int status, const std::string& body,
                          const std::vector<std::string>& headers = {});

// A port on 127.0.0.1 that nothing listens on right now.
int free_port();
// Waits until something accepts connections on 127.0.0.1:port; false after `seconds`.
bool wait_for_port(int port, double seconds);

}  // namespace cuvet::test
