#include "cuvet/elf/tool_release.hpp"

#include <cstring>

namespace cuvet::elf {
namespace {

bool is_decimal_digit(char c) { return c >= '0' && c <= '9'; }

// "13.0.88" at `at`: digits and dots, ending on a digit; "" when none.
std::string dotted_number(std::string_view bytes, std::size_t at) {
    std::size_t end = at;
    while (end < bytes.size() && end - at < 24 &&
           (is_decimal_digit(bytes[end]) || bytes[end] == '.'))
        ++end;
    while (end > at && bytes[end - 1] == '.') --end;
    auto number = bytes.substr(at, end - at);
    if (number.empty() || !is_decimal_digit(number.front()) ||
        number.find('.') == std::string_view::npos)
        return "";
    return std::string(number);
}

// "9_19_0" at `at`: three numbers joined by '_' and followed by one; "" otherwise.
std::string underscored_release(std::string_view bytes, std::size_t at) {
    std::string release;
    for (int part = 0; part < 3; ++part) {
        const std::size_t from = at;
        while (at < bytes.size() && at - from < 4 && is_decimal_digit(bytes[at])) ++at;
        if (at == from || at >= bytes.size() || bytes[at] != '_') return "";
        release += (part ? "." : "") + std::string(bytes.substr(from, at - from));
        ++at;
    }
    return is_decimal_digit(at < bytes.size() ? bytes[at] : 'x') ? release : "";
}

}  // namespace

std::string cudnn_release_at(std::string_view bytes) {
    if (bytes.substr(0, cudnn_release_prefix.size()) != cudnn_release_prefix) return "";
    return underscored_release(bytes, cudnn_release_prefix.size());
}

std::string cuda_tools_release_at(std::string_view bytes) {
    if (bytes.substr(0, cuda_tools_banner.size()) != cuda_tools_banner) return "";
    const std::size_t at = cuda_tools_banner.size();
    std::string release = dotted_number(bytes, at);
    if (release.empty()) return "";
    // ", V12.8.93": the full version, when it continues the short one.
    const std::size_t v = bytes.find(", V", at);
    if (v != std::string_view::npos && v < at + 16) {
        std::string full = dotted_number(bytes, v + 3);
        if (full.rfind(release + ".", 0) == 0) return full;
    }
    return release;
}

namespace {

// The first occurrence of `prefix` that `read_at` reads a release from.
std::string first_release_after(std::string_view bytes, std::string_view prefix,
                                std::string (*read_at)(std::string_view)) {
    std::size_t at = 0;
    while (at < bytes.size()) {
        const void* hit =
            memmem(bytes.data() + at, bytes.size() - at, prefix.data(), prefix.size());
        if (hit == nullptr) return "";
        at = static_cast<const char*>(hit) - bytes.data();
        if (std::string release = read_at(bytes.substr(at)); !release.empty()) return release;
        at += prefix.size();
    }
    return "";
}

}  // namespace

std::string find_cudnn_release(std::string_view bytes) {
    return first_release_after(bytes, cudnn_release_prefix, cudnn_release_at);
}

std::string find_cuda_tools_release(std::string_view bytes) {
    return first_release_after(bytes, cuda_tools_banner, cuda_tools_release_at);
}

}  // namespace cuvet::elf
