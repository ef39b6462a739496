// Lookups over python_packages.json, ngc_containers.json and the frameworks'
// error texts. Unknown stays unknown: nullptr, never the nearest row.
#include <algorithm>
#include <cctype>

#include "cuvet/rules/database.hpp"
#include "package_names.hpp"

namespace cuvet::rules {

namespace detail {

std::string normalize_package_name(std::string_view name) {
    std::string out;
    for (char c : name) {
        bool separator = c == '-' || c == '_' || c == '.';
        if (separator) {
            if (!out.empty() && out.back() != '-') out += '-';
            continue;
        }
        out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    while (!out.empty() && out.back() == '-') out.pop_back();
    return out;
}

}  // namespace detail

namespace {

// One clause of a specifier set: "<10.0" → {"<", 10.0}.
struct Clause {
    std::string op;
    Version version;
};

std::vector<Clause> clauses(const std::string& spec) {
    std::vector<Clause> out;
    std::size_t start = 0;
    while (start <= spec.size()) {
        std::size_t comma = spec.find(',', start);
        std::string part =
            spec.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        part.erase(std::remove_if(part.begin(), part.end(),
                                  [](unsigned char c) { return std::isspace(c); }),
                   part.end());
        std::size_t digits = part.find_first_of("0123456789");
        if (digits != std::string::npos) {
            std::string text = part.substr(digits);
            // "10.0.*" and "9.1.0.70" keep their numeric part.
            while (!text.empty() && !std::isdigit(static_cast<unsigned char>(text.back())))
                text.pop_back();
            if (auto v = Version::parse(text)) out.push_back({part.substr(0, digits), *v});
        }
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return out;
}

}  // namespace

std::optional<Version> Requirement::lower() const {
    for (const auto& c : clauses(spec)) {
        if (c.op == ">=" || c.op == "==" || c.op == "~=" || c.op == ">" || c.op == "===")
            return c.version;
    }
    return std::nullopt;
}

std::optional<Version> Requirement::upper() const {
    for (const auto& c : clauses(spec)) {
        if (c.op == "<" || c.op == "<=") return c.version;
    }
    return std::nullopt;
}

bool Requirement::upper_inclusive() const {
    for (const auto& c : clauses(spec)) {
        if (c.op == "<=") return true;
        if (c.op == "<") return false;
    }
    return false;
}

std::string fill_message(std::string_view text, const MessageValues& values) {
    std::string out(text);
    const std::pair<std::string_view, const std::string*> slots[] = {
        {"{built}", &values.built},
        {"{runtime}", &values.runtime},
        {"{cuda_major}", &values.cuda_major},
        {"{cudnn_major}", &values.cudnn_major},
        {"{library}", &values.library},
        {"{runtime_compat}", &values.runtime_compat},
        {"{built_compat}", &values.built_compat}};
    for (const auto& [slot, value] : slots) {
        if (value->empty()) continue;
        for (auto at = out.find(slot); at != std::string::npos;
             at = out.find(slot, at + value->size())) {
            out.replace(at, slot.size(), *value);
        }
    }
    return out;
}

bool FrameworkErrorText::covers(const Version& framework_version) const {
    if (min_version && framework_version < *min_version) return false;
    if (max_version && *max_version < framework_version &&
        !max_version->covers(framework_version)) {
        return false;
    }
    return true;
}

const Requirement* FrameworkBuild::requirement(std::string_view package_name) const {
    std::string wanted = detail::normalize_package_name(package_name);
    for (const auto& r : requirements) {
        if (detail::normalize_package_name(r.name) == wanted) return &r;
    }
    return nullptr;
}

const FrameworkErrorText* Database::framework_error_text(
    std::string_view framework, std::string_view kind,
    const std::optional<Version>& version) const {
    // A row with a stated range is more specific than an open-ended one.
    auto bounds = [](const FrameworkErrorText& t) {
        return int(bool(t.min_version)) + int(bool(t.max_version));
    };
    const FrameworkErrorText* best = nullptr;
    for (const auto& text : framework_errors_) {
        if (text.framework != framework || text.kind != kind) continue;
        bool usable = version ? text.covers(*version) : !text.max_version;
        if (usable && (!best || bounds(text) > bounds(*best))) best = &text;
    }
    return best;
}

const PythonPackage* Database::python_package(std::string_view name,
                                              std::string_view ecosystem) const {
    std::string wanted = detail::normalize_package_name(name);
    for (const auto& package : python_packages_) {
        if (package.name == wanted && package.ecosystem == ecosystem) return &package;
    }
    return nullptr;
}

const FrameworkBuild* Database::build_for_package(std::string_view name,
                                                  const Version& version) const {
    std::string wanted = detail::normalize_package_name(name);
    // A build row that names the package is the most precise answer.
    for (const auto& build : frameworks_) {
        if (!build.package.empty() && build.package == wanted && build.matches(version))
            return &build;
    }
    const PythonPackage* package = python_package(wanted);
    if (!package || package->framework.empty() || package->variant.empty()) return nullptr;
    return framework_build(package->framework, version, package->variant);
}

const NgcContainerRelease* Database::ngc_container(std::string_view image,
                                                   std::string_view release) const {
    for (std::string_view prefix : {"nvcr.io/nvidia/", "nvidia/"}) {
        if (image.substr(0, prefix.size()) == prefix) image.remove_prefix(prefix.size());
    }
    // "24.05-py3", "24.05-tf2-py3", "24.05-py3-igpu" name the 24.05 release.
    release = release.substr(0, release.find('-'));
    for (const auto& r : ngc_containers_) {
        if (r.image == image && r.release == release) return &r;
    }
    return nullptr;
}

}  // namespace cuvet::rules
