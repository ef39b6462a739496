#include <cctype>

#include "facts.hpp"

namespace cuvet::inventory::detail {

namespace {

bool is_ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The quoted string starting at text[pos] (after spaces), or "".
std::string quoted_at(std::string_view text, std::size_t pos) {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t')) ++pos;
    if (pos >= text.size() || (text[pos] != '\'' && text[pos] != '"')) return "";
    char quote = text[pos];
    auto end = text.find(quote, pos + 1);
    if (end == std::string_view::npos ||
        text.substr(pos, end - pos).find('\n') != std::string_view::npos)
        return "";
    return std::string(text.substr(pos + 1, end - pos - 1));
}

}  // namespace

std::string python_value(std::string_view text, std::string_view key) {
    for (std::size_t at = text.find(key); at != std::string_view::npos;
         at = text.find(key, at + 1)) {
        std::size_t end = at + key.size();
        if (at > 0 && is_ident(text[at - 1])) continue;
        if (end < text.size() && is_ident(text[end])) continue;
        std::size_t pos = end;
        if (pos < text.size() && (text[pos] == '\'' || text[pos] == '"')) ++pos;  // 'key':
        if (pos < text.size() && text[pos] == ']') ++pos;  // build_info['key'] = '1'
        while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t')) ++pos;
        if (pos < text.size() && text[pos] == ':') {
            // A dict item ('key': '1') or an annotation (key: str = '1').
            auto value = quoted_at(text, pos + 1);
            if (!value.empty()) return value;
            auto eq = text.find('=', pos);
            auto nl = text.find('\n', pos);
            if (eq != std::string_view::npos && eq < nl) pos = eq;
        }
        if (pos < text.size() && text[pos] == '=' &&
            (pos + 1 >= text.size() || text[pos + 1] != '=')) {
            auto value = quoted_at(text, pos + 1);
            if (!value.empty()) return value;
        }
    }
    return "";
}

namespace {

// The token after `#define NAME`, or "".
std::string define_value(std::string_view text, std::string_view name) {
    for (std::size_t at = text.find("#define"); at != std::string_view::npos;
         at = text.find("#define", at + 1)) {
        std::size_t pos = at + 7;
        while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t')) ++pos;
        if (text.substr(pos, name.size()) != name) continue;
        pos += name.size();
        if (pos >= text.size() || (text[pos] != ' ' && text[pos] != '\t')) continue;
        while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t')) ++pos;
        std::size_t end = pos;
        while (end < text.size() && is_ident(text[end])) ++end;
        return std::string(text.substr(pos, end - pos));
    }
    return "";
}

}  // namespace

std::string c_define(std::string_view text, std::string_view name) {
    // TensorRT 10 writes `#define NV_TENSORRT_MAJOR TRT_MAJOR_ENTERPRISE`.
    std::string want(name);
    for (int depth = 0; depth < 3; ++depth) {
        std::string found = define_value(text, want);
        if (found.empty() || std::isdigit(static_cast<unsigned char>(found[0]))) return found;
        want = found;
    }
    return "";
}

std::string dir_of(std::string_view path) {
    auto slash = path.rfind('/');
    if (slash == std::string_view::npos || slash == 0) return "/";
    return std::string(path.substr(0, slash));
}

std::string base_of(std::string_view path) {
    auto slash = path.rfind('/');
    return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

std::string root_of_dir(std::string_view dir) {
    static const std::string_view suffixes[] = {"/targets/x86_64-linux/lib",
                                                "/targets/sbsa-linux/lib",
                                                "/targets/x86_64-linux/include",
                                                "/targets/sbsa-linux/include",
                                                "/lib/x86_64-linux-gnu",
                                                "/lib/aarch64-linux-gnu",
                                                "/include/x86_64-linux-gnu",
                                                "/include/aarch64-linux-gnu",
                                                "/lib64",
                                                "/lib",
                                                "/include"};
    std::string root(dir);
    for (auto suffix : suffixes) {
        if (root.size() >= suffix.size() &&
            root.compare(root.size() - suffix.size(), suffix.size(), suffix) == 0) {
            root.resize(root.size() - suffix.size());
            break;
        }
    }
    // /lib/x86_64-linux-gnu and /usr/lib/x86_64-linux-gnu are one system copy.
    if (root.empty() || root == "/") root = "/usr";
    return root;
}

}  // namespace cuvet::inventory::detail
