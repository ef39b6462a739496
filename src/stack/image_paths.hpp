#pragma once
// Image path helpers of the Stack facts (private to src/stack).
#include <string>
#include <string_view>

namespace cuvet::stack {

// `path` lies below the directory `dir`.
inline bool is_under(std::string_view path, std::string_view dir) {
    return path.size() > dir.size() && path.substr(0, dir.size()) == dir && path[dir.size()] == '/';
}
inline std::string last_component(std::string_view path) {
    auto slash = path.rfind('/');
    return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

}  // namespace cuvet::stack
