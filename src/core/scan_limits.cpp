#include "cuvet/core/scan_limits.hpp"

#include <array>
#include <charconv>

namespace cuvet {
namespace {

ScanLimits current;

struct Named {
    std::string_view name;
    std::uint64_t ScanLimits::*field;
    bool size;  // printed and parsed with K/M/G/T
};

constexpr std::array<Named, 19> names{{
    {"file-bytes", &ScanLimits::file_bytes, true},
    {"elf-held", &ScanLimits::elf_held, true},
    {"layer-bytes", &ScanLimits::layer_bytes, true},
    {"index-manifests", &ScanLimits::index_manifests, false},
    {"needed", &ScanLimits::needed, false},
    {"search-paths", &ScanLimits::search_paths, false},
    {"dynamic-bytes", &ScanLimits::dynamic_bytes, true},
    {"symbols", &ScanLimits::symbols, false},
    {"symbol-bytes", &ScanLimits::symbol_bytes, true},
    {"link-bytes", &ScanLimits::link_bytes, true},
    {"inflate-ratio", &ScanLimits::inflate_ratio, false},
    {"path-bytes", &ScanLimits::path_bytes, true},
    {"path-depth", &ScanLimits::path_depth, false},
    {"layers", &ScanLimits::layers, false},
    {"entries", &ScanLimits::entries, false},
    {"image-path-bytes", &ScanLimits::image_path_bytes, true},
    {"input-bytes", &ScanLimits::input_bytes, true},
    {"expansion-bytes", &ScanLimits::expansion_bytes, true},
    {"stages", &ScanLimits::stages, false},
}};

const Named* find(std::string_view name) {
    for (const auto& named : names)
        if (named.name == name) return &named;
    return nullptr;
}

std::string format(std::uint64_t value, bool size) {
    if (size) {
        static constexpr std::string_view suffixes = "KMGT";
        std::string_view suffix;
        for (std::size_t i = 0; i < suffixes.size() && value != 0 && value % 1024 == 0; ++i) {
            value /= 1024;
            suffix = suffixes.substr(i, 1);
        }
        return std::to_string(value) + std::string(suffix);
    }
    return std::to_string(value);
}

std::string value_of(std::string_view name) {
    const Named* named = find(name);
    return named ? format(current.*(named->field), named->size) : "?";
}

}  // namespace

const ScanLimits& scan_limits() { return current; }

void set_scan_limits(const ScanLimits& limits) { current = limits; }

void set_scan_limit(std::string_view assignment) {
    const auto equals = assignment.find('=');
    const std::string_view name = assignment.substr(0, equals);
    const Named* named = equals == std::string_view::npos ? nullptr : find(name);
    if (!named)
        fail_usage("--limit " + std::string(assignment) + ": expected NAME=VALUE, NAME one of " +
                   describe_scan_limits());
    std::string_view text = assignment.substr(equals + 1);
    std::uint64_t scale = 1;
    if (named->size && !text.empty()) {
        static constexpr std::string_view suffixes = "KMGT";
        if (auto at = suffixes.find(text.back()); at != std::string_view::npos) {
            for (std::size_t i = 0; i <= at; ++i) scale *= 1024;
            text.remove_suffix(1);
        }
    }
    std::uint64_t value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc{} || end != text.data() + text.size() || value == 0 ||
        value > UINT64_MAX / scale)
        fail_usage("--limit " + std::string(assignment) +
                   ": the value must be a positive whole number" +
                   (named->size ? " (with K, M, G or T)" : ""));
    current.*(named->field) = value * scale;
}

std::string describe_scan_limits() {
    std::string text;
    for (const auto& named : names) {
        if (!text.empty()) text += ", ";
        text += std::string(named.name) + "=" + format(current.*(named.field), named.size);
    }
    return text;
}

LimitExceeded::LimitExceeded(std::string what, std::string_view limit)
    : Error(ErrorKind::input, what + " (limit " + std::string(limit) + "=" + value_of(limit) +
                                  "; raise it with --limit " + std::string(limit) +
                                  "=…, docs/limits.md)") {}

LimitExceeded LimitExceeded::with_file(const std::string& file) const {
    return LimitExceeded(file + ": " + what(), Whole{});
}

void check_limit(std::uint64_t count, std::uint64_t limit, std::string_view name,
                 std::string_view what) {
    if (count > limit)
        throw LimitExceeded("more than " + std::to_string(limit) + " " + std::string(what), name);
}

}  // namespace cuvet
