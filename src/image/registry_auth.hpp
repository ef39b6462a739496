#pragma once
// Who we are to a registry: credentials from the flags, docker's config.json
// (auths, credHelpers, credsStore) or podman's auth.json, and the
// WWW-Authenticate challenge that says how to present them.
#include <map>
#include <optional>
#include <string>

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

// Credentials stored for `registry` ("host:port", or "docker.io"), or empty.
// Looks at $DOCKER_CONFIG/config.json (default ~/.docker/config.json), then
// $REGISTRY_AUTH_FILE or $XDG_RUNTIME_DIR/containers/auth.json.
Credentials stored_credentials(const std::string& registry);

}  // namespace cuvet::image
