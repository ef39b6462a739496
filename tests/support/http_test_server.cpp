#include "support/http_test_server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <stdexcept>

namespace cuvet::test {
namespace {

sockaddr_in loopback(int port) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return address;
}

void set_timeouts(int fd) {
    timeval timeout{10, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
}

bool send_all(int fd, const char* data, std::size_t length) {
    while (length > 0) {
        ssize_t sent = ::send(fd, data, length, MSG_NOSIGNAL);
        if (sent <= 0) return false;
        data += sent;
        length -= static_cast<std::size_t>(sent);
    }
    return true;
}

// The request head, up to and including the blank line.
std::optional<std::string> read_head(int fd) {
    std::string head;
    char c;
    while (head.size() < 65536) {
        if (::recv(fd, &c, 1, 0) != 1) return std::nullopt;
        // A TLS ClientHello (cuvet tries https first): closing at once makes
        // the client fall back to plain HTTP instead of waiting out a timeout.
        if (head.empty() && c == 0x16) return std::nullopt;
        head += c;
        if (head.size() >= 4 && head.compare(head.size() - 4, 4, "\r\n\r\n") == 0) return head;
    }
    return std::nullopt;
}

HttpRequestHead parse_head(const std::string& head) {
    HttpRequestHead request;
    std::size_t line_end = head.find("\r\n");
    std::string first = head.substr(0, line_end);
    auto space = first.find(' ');
    request.method = first.substr(0, space);
    request.target = first.substr(space + 1, first.rfind(' ') - space - 1);
    std::size_t pos = line_end + 2;
    while (pos < head.size()) {
        std::size_t end = head.find("\r\n", pos);
        std::string line = head.substr(pos, end - pos);
        pos = end + 2;
        auto colon = line.find(':');
        if (colon == std::string::npos) continue;
        std::string name = line.substr(0, colon);
        std::transform(name.begin(), name.end(), name.begin(),
                       [](unsigned char ch) { return std::tolower(ch); });
        std::size_t value = line.find_first_not_of(' ', colon + 1);
        request.headers[name] = value == std::string::npos ? "" : line.substr(value);
    }
    return request;
}

// The same head with "Connection: close", so the upstream ends its response by closing.
std::string closing_head(const std::string& head) {
    std::string out;
    std::size_t pos = 0;
    while (pos < head.size()) {
        std::size_t end = head.find("\r\n", pos);
        std::string line = head.substr(pos, end - pos);
        pos = end + 2;
        if (line.empty()) break;
        std::string lower = line;
        std::transform(lower.begin(), lower.end(), lower.begin(),
                       [](unsigned char ch) { return std::tolower(ch); });
        if (lower.rfind("connection:", 0) == 0) continue;
        out += line + "\r\n";
    }
    return out + "Connection: close\r\n\r\n";
}

}  // namespace

HttpTestServer::HttpTestServer(Handler handler, int upstream_port)
    : handler_(std::move(handler)), upstream_port_(upstream_port) {
    listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    setsockopt(listener_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in address = loopback(0);
    if (::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        ::listen(listener_, 64) != 0)
        throw std::runtime_error("test HTTP server: cannot listen on 127.0.0.1");
    socklen_t length = sizeof address;
    getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length);
    port_ = ntohs(address.sin_port);
    acceptor_ = std::thread([this] { accept_loop(); });
}

HttpTestServer::~HttpTestServer() {
    stop_ = true;
    acceptor_.join();
    ::close(listener_);
    std::lock_guard lock(mutex_);
    for (auto& connection : connections_) connection.join();
}

void HttpTestServer::accept_loop() {
    while (!stop_) {
        pollfd waiting{listener_, POLLIN, 0};
        if (::poll(&waiting, 1, 100) <= 0) continue;
        int client = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
        if (client < 0) continue;
        std::lock_guard lock(mutex_);
        connections_.emplace_back([this, client] { serve(client); });
    }
}

void HttpTestServer::serve(int client) {
    set_timeouts(client);
    auto head = read_head(client);
    if (head) {
        HttpAction action = handler_(parse_head(*head));
        if (action.response && action.trickle_every.count() > 0) {
            trickle(client, *action.response, action.trickle_after, action.trickle_every);
        } else if (action.response) {
            send_all(client, action.response->data(), action.response->size());
        } else {
            int upstream = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
            set_timeouts(upstream);
            sockaddr_in address = loopback(upstream_port_);
            std::string forwarded = closing_head(*head);
            if (::connect(upstream, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
                send_all(upstream, forwarded.data(), forwarded.size())) {
                std::size_t relayed = 0;
                char buffer[16384];
                while (true) {
                    ssize_t got = ::recv(upstream, buffer, sizeof buffer, 0);
                    if (got <= 0) break;
                    std::size_t length = static_cast<std::size_t>(got);
                    if (action.cut_after && relayed + length >= *action.cut_after) {
                        send_all(client, buffer, *action.cut_after - relayed);
                        if (action.before_cut) action.before_cut();
                        break;
                    }
                    if (!send_all(client, buffer, length)) break;
                    relayed += length;
                }
            }
            ::close(upstream);
        }
    }
    ::shutdown(client, SHUT_RDWR);
    ::close(client);
}

void HttpTestServer::trickle(int client, const std::string& response, std::size_t after,
                             std::chrono::milliseconds every) {
    std::size_t sent = std::min(after, response.size());
    if (!send_all(client, response.data(), sent)) return;
    while (sent < response.size() && !stop_) {
        std::this_thread::sleep_for(every);
        if (!send_all(client, response.data() + sent, 1)) return;
        ++sent;
    }
}

std::string http_response(int status, const std::string& body,
                          const std::vector<std::string>& headers) {
    std::string out = "HTTP/1.1 " + std::to_string(status) + " X\r\n";
    for (const auto& header : headers) out += header + "\r\n";
    out += "Content-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n";
    return out + body;
}

int free_port() {
    int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address = loopback(0);
    ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
    socklen_t length = sizeof address;
    getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
    ::close(fd);
    return ntohs(address.sin_port);
}

bool wait_for_port(int port, double seconds) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < deadline) {
        int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in address = loopback(port);
        bool up = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
        ::close(fd);
        if (up) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
}

}  // namespace cuvet::test
