// Which Docker daemon the user means, decided as the docker CLI decides it:
// $DOCKER_HOST, else the endpoint of the current context ($DOCKER_CONTEXT,
// else "currentContext" in config.json; the context's endpoint is in
// contexts/meta/<sha256 of its name>/meta.json), else the default socket.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "image/storage/sha256.hpp"
#include "image/transports/daemon.hpp"

namespace cuvet::image {
namespace {

namespace fs = std::filesystem;

std::string env(const char* name) {
    const char* value = std::getenv(name);
    return value ? value : "";
}

std::optional<nlohmann::json> read_json(const fs::path& path) {
    std::ifstream in(path);
    if (!in) return std::nullopt;
    std::stringstream text;
    text << in.rdbuf();
    auto parsed = nlohmann::json::parse(text.str(), nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object()) return std::nullopt;
    return parsed;
}

}  // namespace

DaemonHost docker_daemon_host() {
    if (std::string host = env("DOCKER_HOST"); !host.empty()) return {host, "DOCKER_HOST=" + host};
    const fs::path config_dir = env("DOCKER_CONFIG").empty() ? fs::path(env("HOME")) / ".docker"
                                                             : fs::path(env("DOCKER_CONFIG"));
    std::string context = env("DOCKER_CONTEXT");
    if (context.empty()) {
        if (auto config = read_json(config_dir / "config.json"))
            if (auto current = config->find("currentContext");
                current != config->end() && current->is_string())
                context = current->get<std::string>();
    }
    if (context.empty() || context == "default") return {};
    std::string digest = sha256_digest(context);
    digest = digest.substr(digest.find(':') + 1);
    const fs::path meta = config_dir / "contexts" / "meta" / digest / "meta.json";
    auto parsed = read_json(meta);
    if (!parsed)
        return {"",
                "docker context '" + context + "' (" + meta.string() + " is missing or not JSON)"};
    std::string host;
    try {
        host = parsed->at("Endpoints").at("docker").value("Host", "");
    } catch (const nlohmann::json::exception&) {
    }
    return {host, "docker context '" + context + "' (" + host + ")"};
}

std::string unix_socket_of(const std::string& host) {
    if (host.rfind("unix://", 0) == 0) return host.substr(7);
    return {};
}

std::string unsupported_host_reason(const DaemonHost& host) {
    if (host.host.empty() || host.host.rfind("unix://", 0) == 0) return {};
    std::string scheme = host.host.substr(0, host.host.find("://"));
    if (scheme == "tcp" || scheme == "http" || scheme == "https")
        return host.source +
               ": TCP is not supported: cuvet reads a daemon through its Unix socket only "
               "(docker save the image and pass the file, or bind the socket)";
    return host.source + ": " + scheme +
           " is not supported: cuvet reads a daemon through its Unix socket only "
           "(docker save the image and pass the file)";
}

}  // namespace cuvet::image
