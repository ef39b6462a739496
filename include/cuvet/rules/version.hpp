#pragma once
// A dotted numeric version ("12.4.1", "535.104.05", "9.1.0.70"). The text is
// kept as written because driver versions are quoted with their leading zeros.
#include <compare>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cuvet::rules {

class Version {
public:
    Version() = default;

    // Accepts 1 to 6 dot-separated decimal numbers, nothing else.
    static std::optional<Version> parse(std::string_view text);
    // Like parse, but throws cuvet::Error(usage) naming `what` on bad text.
    static Version parse_or_throw(std::string_view text, std::string_view what);

    const std::vector<int>& parts() const { return parts_; }
    std::size_t size() const { return parts_.size(); }
    int part(std::size_t index) const { return index < parts_.size() ? parts_[index] : 0; }
    int major() const { return part(0); }
    int minor() const { return part(1); }
    int patch() const { return part(2); }
    const std::string& str() const { return text_; }
    bool empty() const { return parts_.empty(); }

    // True when every component of *this equals the same component of `other`:
    // "12" covers 12.4.1, "2.1" covers 2.1.2, "12.4" does not cover 12.5.
    bool covers(const Version& other) const;
    // Keeps the first `count` components: "12.4.1" → "12.4".
    Version truncated(std::size_t count) const;

    // Numeric order; a missing component counts as 0, so 12.4 == 12.4.0.
    friend std::strong_ordering operator<=>(const Version& a, const Version& b);
    friend bool operator==(const Version& a, const Version& b) {
        return (a <=> b) == std::strong_ordering::equal;
    }

private:
    std::vector<int> parts_;
    std::string text_;
};

}  // namespace cuvet::rules
