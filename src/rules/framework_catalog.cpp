// Lookups in the framework catalog, and the catalog as compiled in.
#include "cuvet/rules/framework_catalog.hpp"

#include <nlohmann/json.hpp>

#include "cudnn_sub_libraries_reader.hpp"
#include "cuvet/core/error.hpp"
#include "cuvet/rules/embedded.hpp"
#include "framework_catalog_reader.hpp"
#include "package_names.hpp"

namespace cuvet::rules {

namespace {

// "102" -> "10.2": CuPy's and MXNet's per-minor wheels write the release without its dot.
std::string dotted(const std::string& digits) {
    return digits.substr(0, digits.size() - 1) + "." + digits.substr(digits.size() - 1);
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// What a whole text read against a pattern: the CUDA of its first CUDA placeholder and the
// digits of its {cuda_major}. A placeholder takes the whole run of digits it starts at.
struct Reading {
    std::string cuda;
    std::string cuda_major;
    std::string cudnn;  // {cudnn_nodot}: "86" -> "8.6", "805" -> "8.0.5"
};

// `whole`: the pattern must cover the text; else a prefix of the text may match it.
std::optional<Reading> read(std::string_view text, std::string_view pattern, bool whole = true) {
    Reading out;
    std::size_t at = 0;
    for (std::size_t p = 0; p < pattern.size();) {
        if (pattern[p] != '{') {
            if (at >= text.size() || text[at] != pattern[p]) return std::nullopt;
            ++at, ++p;
            continue;
        }
        auto close = pattern.find('}', p);
        auto placeholder = pattern.substr(p, close - p + 1);
        p = close + 1;
        auto start = at;
        while (at < text.size() && is_digit(text[at])) ++at;
        std::string digits(text.substr(start, at - start));
        if (placeholder == "{cuda_major}") {
            if (digits.empty() || digits.size() > 2) return std::nullopt;
            if (out.cuda.empty()) out.cuda = digits;
            out.cuda_major = digits;
        } else if (placeholder == "{cuda_nodot}") {
            if (digits.size() < 2 || digits.size() > 3) return std::nullopt;
            if (out.cuda.empty()) out.cuda = dotted(digits);
        } else if (placeholder == "{cudnn_nodot}") {
            if (digits.size() < 2 || digits.size() > 3) return std::nullopt;
            out.cudnn = digits.substr(0, 1) + "." + digits.substr(1, 1) +
                        (digits.size() > 2 ? "." + digits.substr(2) : "");
        } else if (digits.empty()) {
            return std::nullopt;
        }
    }
    if (whole && at != text.size()) return std::nullopt;
    return out;
}

std::optional<PackageMatch> match(std::string_view name, const PackageSpelling& spelling) {
    auto reading = read(name, spelling.pattern);
    if (!reading) return std::nullopt;
    PackageMatch found{nullptr, &spelling, reading->cuda, spelling.dir};
    if (auto at = found.dir.find("{cuda_major}"); at != std::string::npos)
        found.dir.replace(at, 12, reading->cuda_major);
    return found;
}

std::optional<PackageMatch> first_match(const std::vector<FrameworkRecord>& records,
                                        std::string_view name,
                                        std::vector<PackageSpelling> FrameworkRecord::*spellings) {
    for (const auto& record : records)
        for (const auto& spelling : record.*spellings)
            if (auto found = match(name, spelling)) {
                found->framework = &record;
                return found;
            }
    return std::nullopt;
}

std::string_view embedded_frameworks_json() {
    for (const auto& [name, text] : embedded_rule_files())
        if (name == "frameworks.json") return text;
    throw Error(ErrorKind::internal, "rules/frameworks.json is not compiled in");
}

}  // namespace

FrameworkCatalog::FrameworkCatalog(std::vector<FrameworkRecord> records)
    : records_(std::move(records)) {}

const FrameworkRecord* FrameworkCatalog::find(std::string_view framework) const {
    for (const auto& record : records_)
        if (record.framework == framework) return &record;
    return nullptr;
}

const FrameworkRecord* FrameworkCatalog::by_install(std::string_view component) const {
    if (component.empty()) return nullptr;
    for (const auto& record : records_)
        if (record.install == component) return &record;
    return nullptr;
}

std::optional<PackageMatch> FrameworkCatalog::pip(std::string_view distribution) const {
    return first_match(records_, detail::normalize_package_name(distribution),
                       &FrameworkRecord::pip);
}

std::optional<PackageMatch> FrameworkCatalog::conda(std::string_view name) const {
    return first_match(records_, name, &FrameworkRecord::conda);
}

std::optional<WheelMatch> FrameworkCatalog::wheel(std::string_view pip_name) const {
    const std::string name = detail::normalize_package_name(pip_name);
    for (const auto& record : records_)
        for (const auto& spelling : record.pip) {
            if (!spelling.wheel) continue;
            const WheelPolicy* policy = &*spelling.wheel;
            if (match(name, spelling))
                return WheelMatch{&record, &spelling, policy, WheelMatch::Kind::spelling};
            for (const auto& companion : policy->companions)
                if (companion == name)
                    return WheelMatch{&record, &spelling, policy, WheelMatch::Kind::companion};
            for (const auto& placeholder : policy->placeholders)
                if (placeholder == name)
                    return WheelMatch{&record, &spelling, policy, WheelMatch::Kind::placeholder};
        }
    return std::nullopt;
}

std::vector<std::string> FrameworkCatalog::build_variables() const {
    std::vector<std::string> out;
    for (const auto& record : records_)
        out.insert(out.end(), record.build_variables.begin(), record.build_variables.end());
    return out;
}

bool FrameworkCatalog::is_extension_name(std::string_view pip_name) const {
    for (const auto& record : records_)
        for (const auto& spelling : record.pip) {
            if (!spelling.wheel) continue;
            for (const auto& prefix : spelling.wheel->extension_prefixes)
                if (pip_name.starts_with(prefix)) return true;
        }
    return false;
}

bool FrameworkCatalog::official_wheel_host(std::string_view host) const {
    for (const auto& record : records_)
        for (const auto& official : record.wheel_hosts)
            if (official == host) return true;
    return false;
}

bool FrameworkCatalog::apt_binding(std::string_view dpkg_name) const {
    for (const auto& record : records_)
        for (const auto& name : record.apt_bindings) {
            const bool prefix = name.ends_with('*');
            if (prefix ? dpkg_name.starts_with(std::string_view(name).substr(0, name.size() - 1))
                       : dpkg_name == name)
                return true;
        }
    return false;
}

std::optional<VersionFileMatch> FrameworkCatalog::version_file(std::string_view path) const {
    for (const auto& record : records_)
        for (const auto& file : record.version_files) {
            if (path.size() <= file.path.size() || !path.ends_with(file.path) ||
                path[path.size() - file.path.size() - 1] != '/')
                continue;
            auto package_dir = file.path.substr(0, file.path.find('/'));
            auto root = std::string(path.substr(0, path.size() - file.path.size())) + package_dir;
            return VersionFileMatch{&record, &file, std::move(root)};
        }
    return std::nullopt;
}

const VersionHeader* FrameworkCatalog::version_header(std::string_view file_name) const {
    for (const auto& record : records_)
        for (const auto& header : record.version_headers)
            if (header.file == file_name) return &header;
    return nullptr;
}

std::vector<std::string> FrameworkCatalog::env_prefixes() const {
    std::vector<std::string> out;
    for (const auto& record : records_)
        out.insert(out.end(), record.env_prefixes.begin(), record.env_prefixes.end());
    return out;
}

std::optional<FrameworkCatalog::PathMatch> FrameworkCatalog::path_of(
    CatalogPath FrameworkRecord::*kind, std::string_view path) const {
    for (const auto& record : records_) {
        const std::string& wanted = (record.*kind).path;
        if (wanted.empty() || path.size() <= wanted.size() || !path.ends_with(wanted) ||
            path[path.size() - wanted.size() - 1] != '/')
            continue;
        return PathMatch{&record, std::string(path.substr(0, path.size() - wanted.size() - 1))};
    }
    return std::nullopt;
}

std::optional<FrameworkCatalog::ImageMatch> FrameworkCatalog::docker_image(
    std::string_view repository) const {
    for (const auto& record : records_)
        for (const auto& image : record.docker_images)
            if (image.repository == repository) return ImageMatch{&record, &image};
    return std::nullopt;
}

std::optional<FrameworkCatalog::LazyMatch> FrameworkCatalog::lazy_module(
    std::string_view path) const {
    for (const auto& record : records_)
        for (const auto& module : record.lazy_modules) {
            // The module's file is "<path>.<ABI tail>.so" directly in its package dir.
            auto at = path.find("/" + module.path + ".");
            if (at == std::string_view::npos) continue;
            auto tail = path.substr(at + 1 + module.path.size());
            if (tail.find('/') == std::string_view::npos && tail.ends_with(".so"))
                return LazyMatch{&record, &module};
        }
    return std::nullopt;
}

bool FrameworkCatalog::in_bundled_headers(std::string_view path) const {
    for (const auto& record : records_)
        if (!record.bundled_headers.path.empty() &&
            path.find("/" + record.bundled_headers.path + "/") != std::string_view::npos)
            return true;
    return false;
}

std::optional<LocalVersionCuda> FrameworkCatalog::local_version_cuda(const PackageMatch& match,
                                                                     std::string_view version) {
    for (const auto& pattern : match.spelling->local_versions)
        for (std::size_t at = 0; at < version.size(); ++at)
            if (auto reading = read(version.substr(at), pattern); reading && !reading->cuda.empty())
                return LocalVersionCuda{reading->cuda, std::string(version.substr(at)),
                                        reading->cudnn};
    return std::nullopt;
}

std::optional<LocalVersionCuda> FrameworkCatalog::index_cuda(std::string_view url) const {
    for (const auto& record : records_)
        for (const auto& index : record.pip_indexes) {
            // Tried wherever the pattern's literal start occurs in the URL.
            const std::string_view pattern = index.pattern;
            const auto literal = pattern.substr(0, pattern.find('{'));
            for (auto at = url.find(literal); at != std::string_view::npos;
                 at = url.find(literal, at + 1))
                if (auto reading = read(url.substr(at), pattern, false);
                    reading && !reading->cuda.empty())
                    return LocalVersionCuda{reading->cuda, std::string(url.substr(at)), ""};
        }
    return std::nullopt;
}

bool FrameworkCatalog::is_conda_cuda_selector(std::string_view name) const {
    for (const auto& record : records_)
        for (const auto& selector : record.conda_cuda_selectors)
            if (selector == name) return true;
    return false;
}

std::optional<LocalVersionCuda> FrameworkCatalog::extras_cuda(const PackageMatch& match,
                                                              std::string_view extras) {
    while (!extras.empty()) {
        auto comma = extras.find(',');
        auto extra = extras.substr(0, comma);
        while (!extra.empty() && extra.front() == ' ') extra.remove_prefix(1);
        while (!extra.empty() && extra.back() == ' ') extra.remove_suffix(1);
        for (const auto& pattern : match.spelling->cuda_extras)
            if (auto reading = read(extra, pattern, false); reading && !reading->cuda.empty())
                return LocalVersionCuda{reading->cuda, std::string(extra), ""};
        extras = comma == std::string_view::npos ? std::string_view() : extras.substr(comma + 1);
    }
    return std::nullopt;
}

const FrameworkCatalog& builtin_framework_catalog() {
    static const FrameworkCatalog catalog = [] {
        static const std::string origin = "rules/frameworks.json (built-in)";
        auto json = nlohmann::json::parse(embedded_frameworks_json());
        detail::JsonNode root(json, "", origin);
        const auto sources = detail::read_sources(root);
        return detail::read_framework_catalog(
            root.at("catalog"), [&sources](const detail::JsonNode& fact) {
                return detail::read_provenance(fact, "frameworks", sources);
            });
    }();
    return catalog;
}

}  // namespace cuvet::rules
