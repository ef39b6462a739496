#include "image/registry/token_realm.hpp"

#include <algorithm>
#include <cctype>
#include <utility>

namespace cuvet::image {
namespace {

// Registries whose token service lives on another host, as their operators
// document it: Docker Hub (docs.docker.com/registry/spec/auth/token/:
// auth.docker.io), NVIDIA NGC (nvcr.io challenges name authn.nvidia.com),
// GitLab.com (registry.gitlab.com challenges name gitlab.com/jwt/auth).
constexpr std::pair<const char*, const char*> known_token_hosts[] = {
    {"registry-1.docker.io", "auth.docker.io"},
    {"nvcr.io", "authn.nvidia.com"},
    {"registry.gitlab.com", "gitlab.com"},
};

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    return text;
}

}  // namespace

std::string url_host(const std::string& url) {
    std::string rest = url;
    if (auto scheme = rest.find("://"); scheme != std::string::npos) rest = rest.substr(scheme + 3);
    rest = rest.substr(0, rest.find_first_of("/?#"));
    if (auto at = rest.rfind('@'); at != std::string::npos) rest = rest.substr(at + 1);
    if (!rest.empty() && rest.front() == '[')
        return lower(rest.substr(0, rest.find(']') + 1));  // IPv6 literal
    return lower(rest.substr(0, rest.find(':')));
}

std::string credentials_withheld(const std::string& realm, const std::string& registry_host,
                                 bool insecure, bool cross_host_auth) {
    const std::string scheme = lower(realm.substr(0, realm.find("://")));
    if (scheme != "https" && !insecure)
        return "the token realm " + realm + " is not HTTPS (--insecure allows it)";
    if (cross_host_auth) return {};
    const std::string realm_host = url_host(realm);
    const std::string registry = url_host(registry_host);
    if (realm_host == registry) return {};
    for (const auto& [known_registry, token_host] : known_token_hosts)
        if (registry == known_registry && realm_host == token_host) return {};
    return "the token realm " + realm + " is on " + realm_host + ", not the registry's host " +
           registry + " (--cross-host-auth sends them there)";
}

}  // namespace cuvet::image
