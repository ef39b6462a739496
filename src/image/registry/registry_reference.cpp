#include "image/registry/registry_reference.hpp"

#include <algorithm>
#include <cctype>

#include "cuvet/core/error.hpp"
#include "image/storage/sha256.hpp"

namespace cuvet::image {
namespace {

constexpr std::string_view docker_hub = "docker.io";

// The first component names a registry when docker would read it so: it has
// a dot or a port, or it is localhost.
bool is_registry_host(std::string_view component) {
    return component.find('.') != std::string_view::npos ||
           component.find(':') != std::string_view::npos || component == "localhost";
}

bool valid_repository(std::string_view repository) {
    if (repository.empty() || repository.front() == '/' || repository.back() == '/') return false;
    return std::all_of(repository.begin(), repository.end(), [](unsigned char c) {
        return std::islower(c) || std::isdigit(c) || c == '/' || c == '.' || c == '_' || c == '-';
    });
}

bool valid_tag(std::string_view tag) {
    return !tag.empty() && tag.size() <= 128 &&
           std::all_of(tag.begin(), tag.end(), [](unsigned char c) {
               return std::isalnum(c) || c == '_' || c == '.' || c == '-';
           });
}

}  // namespace

std::string RegistryReference::api_host() const {
    return registry == docker_hub ? "registry-1.docker.io" : registry;
}

std::string RegistryReference::str() const {
    std::string text = registry + "/" + repository;
    if (!tag.empty() && digest.empty()) text += ":" + tag;
    if (!digest.empty()) text += "@" + digest;
    return text;
}

RegistryReference parse_registry_reference(std::string_view text) {
    std::string original(text);
    if (text.substr(0, 2) == "//") text.remove_prefix(2);
    RegistryReference ref;
    std::string_view rest = text;
    if (auto at = rest.find('@'); at != std::string_view::npos) {
        ref.digest = std::string(rest.substr(at + 1));
        rest = rest.substr(0, at);
        if (!is_valid_sha256_digest(ref.digest))
            fail_usage(original + ": invalid digest '" + ref.digest +
                       "' (expected sha256:<64 hex>)");
    }
    auto slash = rest.find('/');
    if (slash != std::string_view::npos && is_registry_host(rest.substr(0, slash))) {
        ref.registry = std::string(rest.substr(0, slash));
        rest = rest.substr(slash + 1);
    } else {
        ref.registry = std::string(docker_hub);
    }
    auto last_slash = rest.rfind('/');
    auto colon = rest.rfind(':');
    if (colon != std::string_view::npos &&
        (last_slash == std::string_view::npos || colon > last_slash)) {
        ref.tag = std::string(rest.substr(colon + 1));
        rest = rest.substr(0, colon);
        if (!valid_tag(ref.tag)) fail_usage(original + ": invalid tag '" + ref.tag + "'");
    }
    ref.repository = std::string(rest);
    if (ref.registry == docker_hub && ref.repository.find('/') == std::string::npos)
        ref.repository = "library/" + ref.repository;
    if (!valid_repository(ref.repository))
        fail_usage(original + ": invalid repository name '" + ref.repository +
                   "' (lowercase letters, digits, '.', '_', '-' and '/')");
    if (ref.tag.empty() && ref.digest.empty()) ref.tag = "latest";
    return ref;
}

bool looks_like_reference(std::string_view text) {
    if (text.empty() || text.front() == '/' || text.front() == '.') return false;
    try {
        parse_registry_reference(text);
        return true;
    } catch (const Error&) {
        return false;
    }
}

}  // namespace cuvet::image
