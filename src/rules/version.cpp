#include "cuvet/rules/version.hpp"

#include <charconv>

#include "cuvet/core/error.hpp"

namespace cuvet::rules {

std::optional<Version> Version::parse(std::string_view text) {
    constexpr std::size_t max_parts = 6;
    Version version;
    std::size_t pos = 0;
    while (true) {
        std::size_t dot = text.find('.', pos);
        std::string_view part = text.substr(pos, dot == std::string_view::npos ? dot : dot - pos);
        // Nine digits keep every component inside int; real versions are far shorter.
        if (part.empty() || part.size() > 9) return std::nullopt;
        for (char c : part) {
            if (c < '0' || c > '9') return std::nullopt;  // from_chars would take a sign
        }
        int value = 0;
        auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), value);
        if (ec != std::errc() || end != part.data() + part.size()) return std::nullopt;
        version.parts_.push_back(value);
        if (version.parts_.size() > max_parts) return std::nullopt;
        if (dot == std::string_view::npos) break;
        pos = dot + 1;
    }
    version.text_ = std::string(text);
    return version;
}

Version Version::parse_or_throw(std::string_view text, std::string_view what) {
    if (auto version = parse(text)) return *version;
    fail_usage(std::string(what) + ": '" + std::string(text) +
               "' is not a version (expected numbers separated by dots, e.g. 535.104.05)");
}

bool Version::covers(const Version& other) const {
    if (parts_.empty() || parts_.size() > other.parts_.size()) return false;
    for (std::size_t i = 0; i < parts_.size(); ++i) {
        if (parts_[i] != other.parts_[i]) return false;
    }
    return true;
}

Version Version::truncated(std::size_t count) const {
    Version out;
    for (std::size_t i = 0; i < count && i < parts_.size(); ++i) {
        if (i) out.text_ += '.';
        out.parts_.push_back(parts_[i]);
        out.text_ += std::to_string(parts_[i]);
    }
    return out;
}

std::strong_ordering operator<=>(const Version& a, const Version& b) {
    std::size_t n = std::max(a.parts_.size(), b.parts_.size());
    for (std::size_t i = 0; i < n; ++i) {
        if (auto c = a.part(i) <=> b.part(i); c != 0) return c;
    }
    return std::strong_ordering::equal;
}

}  // namespace cuvet::rules
