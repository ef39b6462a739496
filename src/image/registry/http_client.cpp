#include "image/registry/http_client.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "cuvet/core/error.hpp"
#include "image/registry/curl_library.hpp"

namespace cuvet::image {
namespace {

// Bytes waiting for read() before curl is paused: caps memory per transfer
// however far the network runs ahead of the inflater.
constexpr std::size_t max_pending = 4u << 20;

std::string trim(std::string text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
    std::size_t start = 0;
    while (start < text.size() && std::isspace(static_cast<unsigned char>(text[start]))) ++start;
    return text.substr(start);
}

bool is_tls_error(CURLcode code) {
    return code == CURLE_SSL_CONNECT_ERROR || code == CURLE_PEER_FAILED_VERIFICATION ||
           code == CURLE_SSL_CERTPROBLEM || code == CURLE_SSL_CACERT_BADFILE ||
           code == CURLE_SSL_ISSUER_ERROR;
}

}  // namespace

struct HttpResponse::Transfer {
    const CurlLibrary* lib = nullptr;
    CURL* easy = nullptr;
    CURLM* multi = nullptr;
    curl_slist* header_list = nullptr;
    char error_buffer[CURL_ERROR_SIZE] = {};
    bool follow = true;
    std::string
        body;  // a POST/PUT body: curl reads it in place, so it lives as long as the transfer

    long current_status = 0;
    std::map<std::string, std::string> current_headers;
    long status = 0;
    std::map<std::string, std::string> headers;
    bool headers_done = false;

    std::string pending;
    std::size_t pending_pos = 0;
    bool paused = false;
    bool finished = false;
    CURLcode result = CURLE_OK;

    ~Transfer() {
        if (!lib) return;
        if (multi && easy) lib->multi_remove_handle(multi, easy);
        if (easy) lib->easy_cleanup(easy);
        if (multi) lib->multi_cleanup(multi);
        if (header_list) lib->slist_free_all(header_list);
    }

    static std::size_t on_header(char* data, std::size_t size, std::size_t count, void* opaque) {
        auto* self = static_cast<Transfer*>(opaque);
        std::string line(data, size * count);
        if (line.rfind("HTTP/", 0) == 0) {
            auto space = line.find(' ');
            self->current_status =
                space == std::string::npos ? 0 : std::atol(line.c_str() + space + 1);
            self->current_headers.clear();
        } else if (line == "\r\n" || line == "\n") {
            bool interim = self->current_status < 200;
            bool redirect = self->follow && self->current_status >= 300 &&
                            self->current_status < 400 && self->current_headers.count("location");
            if (!interim && !redirect) {
                self->status = self->current_status;
                self->headers = self->current_headers;
                self->headers_done = true;
            }
        } else if (auto colon = line.find(':'); colon != std::string::npos) {
            std::string name = line.substr(0, colon);
            std::transform(name.begin(), name.end(), name.begin(),
                           [](unsigned char c) { return std::tolower(c); });
            self->current_headers[name] = trim(line.substr(colon + 1));
        }
        return size * count;
    }

    static std::size_t on_body(char* data, std::size_t size, std::size_t count, void* opaque) {
        auto* self = static_cast<Transfer*>(opaque);
        if (self->pending.size() - self->pending_pos >= max_pending) {
            self->paused = true;
            return CURL_WRITEFUNC_PAUSE;
        }
        if (self->pending_pos > 0 && self->pending_pos == self->pending.size()) {
            self->pending.clear();
            self->pending_pos = 0;
        }
        self->pending.append(data, size * count);
        return size * count;
    }
};

HttpResponse::HttpResponse(const HttpRequest& request)
    : transfer_(std::make_unique<Transfer>()),
      url_(request.url),
      timeout_seconds_(request.timeout_seconds),
      deadline_(std::chrono::steady_clock::now() + std::chrono::seconds(request.timeout_seconds)) {
    auto& t = *transfer_;
    t.lib = &curl_library(request.url);
    const CurlLibrary* lib = t.lib;
    t.easy = lib->easy_init();
    t.multi = lib->multi_init();
    if (!t.easy || !t.multi) fail_io("libcurl: cannot create a transfer");
    t.follow = request.follow_redirects;
    CURL* easy = t.easy;
    lib->easy_setopt(easy, CURLOPT_URL, request.url.c_str());
    lib->easy_setopt(easy, CURLOPT_ERRORBUFFER, t.error_buffer);
    lib->easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    lib->easy_setopt(easy, CURLOPT_FOLLOWLOCATION, request.follow_redirects ? 1L : 0L);
    lib->easy_setopt(easy, CURLOPT_MAXREDIRS, 10L);
    lib->easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
    lib->easy_setopt(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    lib->easy_setopt(easy, CURLOPT_CONNECTTIMEOUT, 30L);
    // A stalled connection is a failure, not a hang.
    lib->easy_setopt(easy, CURLOPT_LOW_SPEED_LIMIT, request.stall_bytes);
    lib->easy_setopt(easy, CURLOPT_LOW_SPEED_TIME, request.stall_seconds);
    lib->easy_setopt(easy, CURLOPT_BUFFERSIZE, 256L * 1024);
    lib->easy_setopt(easy, CURLOPT_USERAGENT, "cuvet/" CUVET_VERSION);
    lib->easy_setopt(easy, CURLOPT_HEADERFUNCTION, &Transfer::on_header);
    lib->easy_setopt(easy, CURLOPT_HEADERDATA, &t);
    lib->easy_setopt(easy, CURLOPT_WRITEFUNCTION, &Transfer::on_body);
    lib->easy_setopt(easy, CURLOPT_WRITEDATA, &t);
    if (!request.unix_socket.empty())
        lib->easy_setopt(easy, CURLOPT_UNIX_SOCKET_PATH, request.unix_socket.c_str());
    if (!request.tls.verify) {
        lib->easy_setopt(easy, CURLOPT_SSL_VERIFYPEER, 0L);
        lib->easy_setopt(easy, CURLOPT_SSL_VERIFYHOST, 0L);
    } else if (!request.tls.ca_file.empty()) {
        lib->easy_setopt(easy, CURLOPT_CAINFO, request.tls.ca_file.c_str());
    }
    std::string range;
    if (request.range_from > 0) {
        range = std::to_string(request.range_from) + "-";
        lib->easy_setopt(easy, CURLOPT_RANGE, range.c_str());
    }
    if (!request.method.empty()) {
        t.body = request.body;
        lib->easy_setopt(easy, CURLOPT_CUSTOMREQUEST, request.method.c_str());
        lib->easy_setopt(easy, CURLOPT_POSTFIELDS, t.body.data());
        lib->easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(t.body.size()));
        // No "Expect: 100-continue" round trip before a body the registry takes anyway.
        t.header_list = lib->slist_append(t.header_list, "Expect:");
    }
    for (const auto& header : request.headers)
        t.header_list = lib->slist_append(t.header_list, header.c_str());
    if (t.header_list) lib->easy_setopt(easy, CURLOPT_HTTPHEADER, t.header_list);
    lib->multi_add_handle(t.multi, easy);
}

HttpResponse::~HttpResponse() = default;

bool HttpResponse::pump() {
    auto& t = *transfer_;
    const CurlLibrary* lib = t.lib;
    if (t.finished) return false;
    int running = 0;
    if (lib->multi_perform(t.multi, &running) != CURLM_OK) {
        t.finished = true;
        error_ = "libcurl multi interface failed";
        return false;
    }
    int queued = 0;
    while (CURLMsg* message = lib->multi_info_read(t.multi, &queued)) {
        if (message->msg != CURLMSG_DONE) continue;
        t.finished = true;
        t.result = message->data.result;
        if (t.result != CURLE_OK) {
            error_ = t.error_buffer[0] ? t.error_buffer : lib->easy_strerror(t.result);
            tls_failed_ = is_tls_error(t.result);
            timed_out_ = t.result == CURLE_OPERATION_TIMEDOUT;
        }
    }
    return !t.finished;
}

void HttpResponse::wait() {
    int wait_ms = 1000;
    if (timeout_seconds_ > 0) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline_ - std::chrono::steady_clock::now());
        if (left.count() <= 0)
            fail_io(url_ + ": no complete response within " + std::to_string(timeout_seconds_) +
                    " s (--timeout)");
        wait_ms = static_cast<int>(std::min<long long>(wait_ms, left.count()));
    }
    transfer_->lib->multi_poll(transfer_->multi, nullptr, 0, wait_ms, nullptr);
}

long HttpResponse::status() {
    auto& t = *transfer_;
    while (!t.headers_done && pump())
        if (!t.headers_done) wait();
    return t.headers_done ? t.status : 0;
}

const std::map<std::string, std::string>& HttpResponse::headers() {
    status();
    return transfer_->headers;
}

std::optional<std::string> HttpResponse::header(const std::string& lower_name) {
    const auto& all = headers();
    auto it = all.find(lower_name);
    if (it == all.end()) return std::nullopt;
    return it->second;
}

std::size_t HttpResponse::read(char* buffer, std::size_t capacity) {
    auto& t = *transfer_;
    const CurlLibrary* lib = t.lib;
    while (t.pending_pos == t.pending.size()) {
        if (t.paused) {
            t.paused = false;
            lib->easy_pause(t.easy, CURLPAUSE_CONT);
            continue;
        }
        if (!pump()) {
            if (t.pending_pos == t.pending.size()) return 0;
            break;
        }
        if (t.pending_pos == t.pending.size()) wait();
    }
    std::size_t n = std::min(capacity, t.pending.size() - t.pending_pos);
    std::memcpy(buffer, t.pending.data() + t.pending_pos, n);
    t.pending_pos += n;
    return n;
}

std::optional<std::string> HttpResponse::read_body(std::uint64_t limit) {
    std::string body;
    char buffer[64 * 1024];
    while (std::size_t got = read(buffer, sizeof buffer)) {
        if (body.size() + got > limit) return std::nullopt;
        body.append(buffer, got);
    }
    return body;
}

std::string base64_encode(const std::string& bytes) {
    static const char table[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    std::size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) |
                     (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                     static_cast<unsigned char>(bytes[i + 2]);
        out += {table[v >> 18], table[(v >> 12) & 63], table[(v >> 6) & 63], table[v & 63]};
    }
    if (i + 1 == bytes.size()) {
        unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
        out += {table[v >> 18], table[(v >> 12) & 63], '=', '='};
    } else if (i + 2 == bytes.size()) {
        unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) |
                     (static_cast<unsigned char>(bytes[i + 1]) << 8);
        out += {table[v >> 18], table[(v >> 12) & 63], table[(v >> 6) & 63], '='};
    }
    return out;
}

std::string base64_decode(const std::string& text) {
    std::string out;
    unsigned value = 0;
    int bits = 0;
    for (char c : text) {
        int d;
        if (c >= 'A' && c <= 'Z')
            d = c - 'A';
        else if (c >= 'a' && c <= 'z')
            d = c - 'a' + 26;
        else if (c >= '0' && c <= '9')
            d = c - '0' + 52;
        else if (c == '+' || c == '-')
            d = 62;
        else if (c == '/' || c == '_')
            d = 63;
        else
            continue;  // padding and whitespace
        value = (value << 6) | static_cast<unsigned>(d);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((value >> bits) & 0xff);
        }
    }
    return out;
}

std::string url_escape(const std::string& text) {
    std::string out;
    for (unsigned char c : text) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
            out += static_cast<char>(c);
        } else {
            char hex[4];
            std::snprintf(hex, sizeof hex, "%%%02X", c);
            out += hex;
        }
    }
    return out;
}

}  // namespace cuvet::image
