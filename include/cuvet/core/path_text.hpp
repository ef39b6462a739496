#pragma once
// A path inside an image, taken apart as text: the image's paths are not the host's, so
// std::filesystem (which would normalise them against the host's rules) is not used.
#include <string>
#include <string_view>

namespace cuvet {

inline std::string_view base_name(std::string_view path) {
    auto slash = path.rfind('/');
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

inline std::string dir_name(std::string_view path) {
    auto slash = path.rfind('/');
    return slash == std::string_view::npos ? std::string() : std::string(path.substr(0, slash));
}

}  // namespace cuvet
