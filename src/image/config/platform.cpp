#include "cuvet/core/error.hpp"
#include "cuvet/image/image.hpp"

namespace cuvet::image {

Platform Platform::parse(std::string_view text) {
    Platform platform;
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (true) {
        std::size_t slash = text.find('/', start);
        parts.emplace_back(
            text.substr(start, slash == std::string_view::npos ? slash : slash - start));
        if (slash == std::string_view::npos) break;
        start = slash + 1;
    }
    if (parts.size() < 2 || parts.size() > 3 || parts[0].empty() || parts[1].empty())
        fail_usage("--platform: expected os/arch[/variant], got '" + std::string(text) + "'");
    platform.os = parts[0];
    platform.architecture = parts[1];
    if (parts.size() == 3) platform.variant = parts[2];
    return platform;
}

std::string Platform::str() const {
    return os + "/" + architecture + (variant.empty() ? "" : "/" + variant);
}

bool Platform::matches(const Platform& wanted) const {
    if (os != wanted.os || architecture != wanted.architecture) return false;
    return wanted.variant.empty() || variant == wanted.variant;
}

std::optional<std::string> ImageConfig::env_value(std::string_view key) const {
    for (const auto& entry : env) {
        if (entry.size() > key.size() && entry.compare(0, key.size(), key) == 0 &&
            entry[key.size()] == '=')
            return entry.substr(key.size() + 1);
    }
    return std::nullopt;
}

}  // namespace cuvet::image
