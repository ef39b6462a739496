#pragma once
// Who we are to a registry: credentials from the flags, docker's config.json
// (auths, credHelpers, credsStore) or podman's auth.json, and the
// WWW-Authenticate challenge that says how to present them.
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cuvet::image {

struct Credentials {
    std::string username;
    std::string password;
    std::string
        source;  // "--username", "~/.docker/config.json", "docker-credential-pass"… for messages
    bool empty() const { return username.empty() && password.empty(); }
};

// The registry's "Bearer realm=…,service=…,scope=…" or "Basic realm=…".
struct Challenge {
    std::string scheme;  // lower case: "bearer", "basic"
    std::map<std::string, std::string> params;
};
std::optional<Challenge> parse_challenge(const std::string& header);

// The files credentials are looked up in, first first (containers-auth.json(5)):
// $REGISTRY_AUTH_FILE, else $XDG_RUNTIME_DIR/containers/auth.json; then
// $XDG_CONFIG_HOME/containers/auth.json (default ~/.config); then
// $DOCKER_CONFIG/config.json (default ~/.docker/config.json).
std::vector<std::string> auth_file_search_order();

// Credentials stored for `registry` ("host:port", or "docker.io"), or empty:
// from the first file of auth_file_search_order() that has an entry for it.
Credentials stored_credentials(const std::string& registry);

}  // namespace cuvet::image
