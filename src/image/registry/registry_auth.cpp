#include "image/registry/registry_auth.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cuvet/core/error.hpp"
#include "image/registry/http_client.hpp"

namespace cuvet::image {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string env_or(const char* name, const std::string& fallback) {
    const char* value = std::getenv(name);
    return value && *value ? value : fallback;
}

// "https://index.docker.io/v1/" → "index.docker.io"; "host:5000/v2/" → "host:5000".
std::string normalize_key(std::string key) {
    if (auto scheme = key.find("://"); scheme != std::string::npos) key = key.substr(scheme + 3);
    if (auto slash = key.find('/'); slash != std::string::npos) key = key.substr(0, slash);
    return key;
}

bool key_matches(const std::string& key, const std::string& registry) {
    std::string host = normalize_key(key);
    if (host == registry) return true;
    // Docker Hub is stored under its legacy index name.
    return registry == "docker.io" && (host == "index.docker.io" || host == "registry-1.docker.io");
}

std::optional<json> read_config(const fs::path& path) {
    std::ifstream in(path);
    if (!in) return std::nullopt;
    std::stringstream text;
    text << in.rdbuf();
    // A broken config file must not stop an anonymous pull: it is skipped.
    json parsed = json::parse(text.str(), nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object()) return std::nullopt;
    return parsed;
}

// Runs `docker-credential-<helper> get` with the server on stdin, as docker does.
Credentials from_helper(const std::string& helper, const std::string& registry) {
    std::string program = "docker-credential-" + helper;
    int to_child[2], from_child[2];
    if (pipe(to_child) != 0) return {};
    if (pipe(from_child) != 0) {
        close(to_child[0]), close(to_child[1]);
        return {};
    }
    pid_t pid = fork();
    if (pid == 0) {
        dup2(to_child[0], 0);
        dup2(from_child[1], 1);
        close(to_child[1]), close(from_child[0]);
        execlp(program.c_str(), program.c_str(), "get", static_cast<char*>(nullptr));
        _exit(127);
    }
    close(to_child[0]), close(from_child[1]);
    std::string server = registry == "docker.io" ? "https://index.docker.io/v1/" : registry;
    if (pid > 0) {
        ssize_t ignored = write(to_child[1], server.data(), server.size());
        (void)ignored;
    }
    close(to_child[1]);
    std::string output;
    char buffer[4096];
    ssize_t got;
    while ((got = read(from_child[0], buffer, sizeof buffer)) > 0 || (got < 0 && errno == EINTR))
        if (got > 0 && output.size() < (1 << 20))
            output.append(buffer, static_cast<std::size_t>(got));
    close(from_child[0]);
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return {};
    json reply = json::parse(output, nullptr, false);
    if (!reply.is_object()) return {};
    Credentials credentials{reply.value("Username", ""), reply.value("Secret", ""), program};
    // "<token>" marks an identity token (OAuth refresh token), which we do not speak.
    if (credentials.username == "<token>") return {};
    return credentials;
}

Credentials from_config(const json& config, const std::string& registry, const std::string& where) {
    if (auto helpers = config.find("credHelpers"); helpers != config.end() && helpers->is_object())
        for (const auto& [key, helper] : helpers->items())
            if (key_matches(key, registry) && helper.is_string())
                return from_helper(helper.get<std::string>(), registry);
    if (auto auths = config.find("auths"); auths != config.end() && auths->is_object()) {
        for (const auto& [key, entry] : auths->items()) {
            if (!key_matches(key, registry) || !entry.is_object()) continue;
            std::string auth = entry.value("auth", "");
            if (!auth.empty()) {
                std::string pair = base64_decode(auth);
                auto colon = pair.find(':');
                if (colon != std::string::npos)
                    return {pair.substr(0, colon), pair.substr(colon + 1), where};
            }
            if (entry.contains("username"))
                return {entry.value("username", ""), entry.value("password", ""), where};
        }
    }
    if (auto store = config.find("credsStore"); store != config.end() && store->is_string())
        return from_helper(store->get<std::string>(), registry);
    return {};
}

}  // namespace

std::optional<Challenge> parse_challenge(const std::string& header) {
    std::size_t pos = 0;
    while (pos < header.size() && std::isspace(static_cast<unsigned char>(header[pos]))) ++pos;
    std::size_t end = header.find(' ', pos);
    if (end == std::string::npos) end = header.size();
    Challenge challenge;
    for (std::size_t i = pos; i < end; ++i)
        challenge.scheme += static_cast<char>(std::tolower(static_cast<unsigned char>(header[i])));
    if (challenge.scheme.empty()) return std::nullopt;
    pos = end;
    while (pos < header.size()) {
        while (pos < header.size() && (header[pos] == ' ' || header[pos] == ',')) ++pos;
        std::size_t eq = header.find('=', pos);
        if (eq == std::string::npos) break;
        std::string key;
        for (std::size_t i = pos; i < eq; ++i)
            key += static_cast<char>(std::tolower(static_cast<unsigned char>(header[i])));
        pos = eq + 1;
        std::string value;
        if (pos < header.size() && header[pos] == '"') {
            for (++pos; pos < header.size() && header[pos] != '"'; ++pos) {
                if (header[pos] == '\\' && pos + 1 < header.size()) ++pos;
                value += header[pos];
            }
            ++pos;
        } else {
            while (pos < header.size() && header[pos] != ',') value += header[pos++];
        }
        challenge.params[key] = value;
    }
    return challenge;
}

std::vector<std::string> auth_file_search_order() {
    // containers-auth.json(5), as containers/image reads it for skopeo and
    // podman: REGISTRY_AUTH_FILE replaces the runtime file; Docker's file last.
    const std::string home = env_or("HOME", "");
    std::vector<std::string> files;
    files.push_back(env_or("REGISTRY_AUTH_FILE",
                           env_or("XDG_RUNTIME_DIR", "/run/user/" + std::to_string(getuid())) +
                               "/containers/auth.json"));
    files.push_back(env_or("XDG_CONFIG_HOME", home + "/.config") + "/containers/auth.json");
    files.push_back(env_or("DOCKER_CONFIG", home + "/.docker") + "/config.json");
    return files;
}

Credentials stored_credentials(const std::string& registry) {
    // The first file with an entry for the registry answers, as in containers/image.
    for (const std::string& file : auth_file_search_order()) {
        if (auto config = read_config(file)) {
            auto credentials = from_config(*config, registry, file);
            if (!credentials.empty()) return credentials;
        }
    }
    return {};
}

}  // namespace cuvet::image
