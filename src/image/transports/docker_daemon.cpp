// Images in a local Docker Engine or podman, through the Engine API on a unix
// socket ($DOCKER_HOST, /var/run/docker.sock, then podman's socket, which
// speaks the same API). Config and history come from /images/{name}/json and
// /history; scan() streams GET /images/{name}/get — the `docker save` tar —
// straight into the layer reader, with no temp file: each member whose name
// carries its digest (podman's "<hex>.tar", Docker 25+'s "blobs/sha256/<hex>")
// is matched to the config's diff_ids as it passes by. Docker < 25 names its
// layers by v1 ids, which say nothing until manifest.json at the very end, so
// that export alone is spooled to an unlinked temporary file and read as a
// docker-save archive.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "cuvet/core/error.hpp"
#include "image/config/config_parser.hpp"
#include "image/layers/streamed_archive.hpp"
#include "image/registry/http_client.hpp"
#include "image/storage/blob_store.hpp"
#include "image/transports/daemon.hpp"
#include "image/transports/formats.hpp"

namespace cuvet::image {
namespace {

using nlohmann::json;

std::string socket_from_env(const char* name) {
    const char* value = std::getenv(name);
    if (!value || !*value) return {};
    std::string text = value;
    if (text.rfind("unix://", 0) == 0) return text.substr(7);
    return {};  // tcp:// and ssh:// daemons are not spoken to
}

bool is_socket(const std::string& path) {
    struct stat info {};
    return !path.empty() && ::stat(path.c_str(), &info) == 0 && S_ISSOCK(info.st_mode);
}

class EngineApi {
public:
    EngineApi(std::string socket) : socket_(std::move(socket)) {}
    std::unique_ptr<HttpResponse> get(const std::string& path) const {
        HttpRequest request;
        request.url = "http://localhost" + path;
        request.unix_socket = socket_;
        request.follow_redirects = false;
        auto response = std::make_unique<HttpResponse>(request);
        if (response->status() == 0) fail_io(socket_ + ": " + response->transport_error());
        return response;
    }
    json get_json(const std::string& path, const std::string& where) const {
        auto response = get(path);
        if (response->status() != 200)
            fail_input(where + ": the daemon answered HTTP " + std::to_string(response->status()) +
                       " for " + path);
        auto body = response->read_body(64u << 20);
        if (!body) fail_input(where + ": " + path + " is larger than 64 MB");
        return parse_json(*body, where);
    }
    const std::string& socket() const { return socket_; }

private:
    std::string socket_;
};

// The OCI config shape parse_config reads, rebuilt from the inspect and
// history answers. History comes newest first; an entry that made no layer
// reports size 0 (the API has no empty_layer flag), which is trusted only
// when it accounts for exactly the image's layers.
json config_from_inspect(const json& inspect, const json& history) {
    json config = {{"architecture", inspect.value("Architecture", "")},
                   {"os", inspect.value("Os", "")},
                   {"created", inspect.value("Created", "")},
                   {"config", inspect.value("Config", json::object())}};
    if (inspect.contains("Variant")) config["variant"] = inspect.value("Variant", "");
    json diff_ids = json::array();
    if (auto rootfs = inspect.find("RootFS"); rootfs != inspect.end() && rootfs->is_object())
        diff_ids = rootfs->value("Layers", json::array());
    config["rootfs"] = {{"type", "layers"}, {"diff_ids", diff_ids}};
    if (!config["config"].is_object()) config["config"] = json::object();
    // The API writes absent fields as null ("Env": null); the config format omits them.
    for (auto it = config["config"].begin(); it != config["config"].end();)
        it = it->is_null() ? config["config"].erase(it) : std::next(it);
    json lines = json::array();
    std::size_t sized = 0;
    if (history.is_array()) {
        for (auto it = history.rbegin(); it != history.rend(); ++it) {
            if (!it->is_object()) continue;
            bool empty = it->value("Size", 0) == 0;
            sized += empty ? 0 : 1;
            lines.push_back({{"created_by", it->value("CreatedBy", "")},
                             {"comment", it->value("Comment", "")},
                             {"empty_layer", empty}});
        }
    }
    if (sized == diff_ids.size()) config["history"] = lines;
    return config;
}

bool api_at_least_1_44(const std::string& api_version) {
    auto dot = api_version.find('.');
    int major = std::atoi(api_version.c_str());
    int minor = dot == std::string::npos ? 0 : std::atoi(api_version.c_str() + dot + 1);
    return major > 1 || (major == 1 && minor >= 44);
}

// Docker before 25 (API 1.44) exports the legacy layout; podman reports its
// own version but always writes layers named by digest. Both name themselves
// in the headers of every answer (`answer`: the inspect); /version only when
// they do not, since podman takes seconds to compose it (13 s under load on
// the 2-core bench machine, more than a run whose layers are all cached).
bool exports_named_layers(const EngineApi& api, HttpResponse& answer) {
    if (answer.header("libpod-api-version")) return true;
    if (auto api_version = answer.header("api-version")) return api_at_least_1_44(*api_version);
    json version = api.get_json("/version", api.socket());
    if (auto components = version.find("Components");
        components != version.end() && components->is_array())
        for (const auto& component : *components)
            if (component.is_object() &&
                component.value("Name", "").find("Podman") != std::string::npos)
                return true;
    return api_at_least_1_44(version.value("ApiVersion", "0.0"));
}

// A response body that turns a transfer broken off into an error at its end.
class CheckedResponse : public ByteSource {
public:
    CheckedResponse(std::unique_ptr<HttpResponse> response, std::string where)
        : response_(std::move(response)), where_(std::move(where)) {}
    std::size_t read(char* buffer, std::size_t capacity) override {
        std::size_t got = response_->read(buffer, capacity);
        if (got == 0 && !response_->transport_error().empty())
            fail_io(where_ + ": export broke off: " + response_->transport_error());
        return got;
    }

private:
    std::unique_ptr<HttpResponse> response_;
    std::string where_;
};

// The whole export in an unlinked file (Docker < 25 only), read as a docker-save archive.
std::unique_ptr<Image> open_spooled(const EngineApi& api, const std::string& name,
                                    const std::string& where, const OpenOptions& options) {
    const char* tmp = std::getenv("TMPDIR");
    int fd = ::open(tmp && *tmp ? tmp : "/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd < 0) fail_io(where + ": cannot create a temporary file: " + std::strerror(errno));
    auto response = api.get("/images/" + name + "/get");
    if (response->status() != 200) {
        ::close(fd);
        fail_input(where + ": export failed (HTTP " + std::to_string(response->status()) + ")");
    }
    std::vector<char> buffer(1 << 20);
    while (std::size_t got = response->read(buffer.data(), buffer.size())) {
        for (std::size_t written = 0; written < got;) {
            ssize_t n = ::write(fd, buffer.data() + written, got - written);
            if (n < 0) {
                ::close(fd);
                fail_io(where + ": writing the temporary export failed: " + std::strerror(errno));
            }
            written += static_cast<std::size_t>(n);
        }
    }
    if (!response->transport_error().empty()) {
        ::close(fd);
        fail_io(where + ": export broke off: " + response->transport_error());
    }
    std::string path = "/proc/self/fd/" + std::to_string(fd);
    auto store = open_tar_store(path);  // holds its own descriptor
    ::close(fd);
    auto image = open_docker_archive(std::move(store), where, options);
    return image;
}

}  // namespace

std::vector<std::string> daemon_sockets() {
    std::vector<std::string> sockets;
    auto add = [&](const std::string& path) {
        if (is_socket(path) && std::find(sockets.begin(), sockets.end(), path) == sockets.end())
            sockets.push_back(path);
    };
    const DaemonHost docker = docker_daemon_host();
    add(docker.host.empty() ? std::string("/var/run/docker.sock") : unix_socket_of(docker.host));
    add(socket_from_env("CONTAINER_HOST"));
    const char* runtime = std::getenv("XDG_RUNTIME_DIR");
    add(std::string(runtime && *runtime ? runtime : "/run/user/" + std::to_string(getuid())) +
        "/podman/podman.sock");
    add("/run/podman/podman.sock");
    return sockets;
}

std::unique_ptr<Image> open_daemon_image(const std::string& name, const OpenOptions& options,
                                         std::vector<std::string>* tried) {
    for (const auto& socket : daemon_sockets()) {
        EngineApi api(socket);
        const std::string where = "docker-daemon:" + name;
        std::unique_ptr<HttpResponse> inspect;
        try {
            inspect = api.get("/images/" + name + "/json");
        } catch (const Error& e) {
            tried->push_back(e.what());
            continue;
        }
        if (inspect->status() == 404) {
            tried->push_back(socket + ": no image " + name);
            continue;
        }
        if (inspect->status() != 200)
            fail_input(where + ": " + socket + " answered HTTP " +
                       std::to_string(inspect->status()));
        auto body = inspect->read_body(64u << 20);
        json inspected = parse_json(body.value_or(""), where);
        if (!exports_named_layers(api, *inspect)) return open_spooled(api, name, where, options);
        json history = api.get_json("/images/" + name + "/history", where);
        ImageInfo info;
        info.format = "docker-daemon";
        info.path = where;
        info.reference = name;
        info.config_digest = inspected.value("Id", "");
        info.config = parse_config(config_from_inspect(inspected, history), where + " (inspect)");
        auto open_export = [api, name, where]() -> std::unique_ptr<ByteSource> {
            auto response = api.get("/images/" + name + "/get");
            if (response->status() != 200)
                fail_input(where + ": export failed (HTTP " + std::to_string(response->status()) +
                           ")");
            return std::make_unique<CheckedResponse>(std::move(response), where);
        };
        return open_streamed_archive(std::move(info), open_export, options);
    }
    if (std::string reason = unsupported_host_reason(docker_daemon_host()); !reason.empty())
        fail_input("docker-daemon:" + name + ": " + reason);
    return nullptr;
}

}  // namespace cuvet::image
