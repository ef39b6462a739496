// Lookups over the loaded tables. Every answer that the table does not hold is
// "unknown" (nullopt / nullptr), never an extrapolation.
#include "cuvet/rules/database.hpp"

#include <algorithm>
#include <cctype>

#include "tables_read_on_demand.hpp"

namespace cuvet::rules {

Database::Database() : on_demand_(std::make_shared<TablesReadOnDemand>()) {}

namespace {

std::string normalize_gpu_name(std::string_view name) {
    std::string out;
    for (char c : name) {
        if (std::isalnum(static_cast<unsigned char>(c))) {
            out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
    }
    // "NVIDIA H100", "Tesla V100", "GeForce RTX 4090" name the same products.
    for (std::string_view prefix : {"nvidia", "tesla", "geforce"}) {
        if (out.rfind(prefix, 0) == 0 && out.size() > prefix.size()) out.erase(0, prefix.size());
    }
    return out;
}

bool all_digits(std::string_view text) {
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c));
    });
}

}  // namespace

bool FrameworkBuild::matches(const Version& framework_version) const {
    if (version && until) {
        return *version <= framework_version &&
               (framework_version <= *until || until->covers(framework_version));
    }
    return !version || version->covers(framework_version) || *version == framework_version;
}

std::optional<DriverRequirement> Database::min_driver_for(const Version& cuda) const {
    const DriverEntry* best = nullptr;
    for (const auto& entry : drivers_) {
        if (entry.cuda.major() != cuda.major() || entry.cuda.minor() != cuda.minor()) continue;
        if (entry.cuda > cuda) continue;
        if (!best || entry.cuda > best->cuda) best = &entry;
    }
    if (!best) return std::nullopt;
    return DriverRequirement{best->cuda, best->cuda == cuda, best->min_driver, best->provenance};
}

const MinorVersionCompat* Database::minor_version_compat(int cuda_major) const {
    for (const auto& entry : minor_compat_) {
        if (entry.cuda_major == cuda_major) return &entry;
    }
    return nullptr;
}

const SonameFact* Database::soname(std::string_view name) const {
    for (const auto& fact : sonames_) {
        if (fact.soname == name) return &fact;
    }
    return nullptr;
}

std::optional<int> Database::cuda_major_for_soname(std::string_view name) const {
    const SonameFact* fact = soname(name);
    if (!fact || fact->any_cuda_major || fact->cuda_majors.size() != 1) return std::nullopt;
    return fact->cuda_majors.front();
}

const CudnnSonames* Database::cudnn_sonames(int major) const {
    for (const auto& set : cudnn_sonames_) {
        if (set.major == major) return &set;
    }
    return nullptr;
}

std::optional<int> Database::cudnn_major_for_soname(std::string_view name) const {
    for (const auto& set : cudnn_sonames_) {
        if (std::find(set.libraries.begin(), set.libraries.end(), name) != set.libraries.end()) {
            return set.major;
        }
    }
    return std::nullopt;
}

std::optional<Version> Database::decode_cudnn_version(long encoded) const {
    if (encoded <= 0) return std::nullopt;
    for (const auto& encoding : cudnn_encodings_) {
        long scale = encoding.formula == "major*10000+minor*100+patch" ? 10000 : 1000;
        long major = encoded / scale;
        if (std::find(encoding.majors.begin(), encoding.majors.end(), major) ==
            encoding.majors.end()) {
            continue;
        }
        long rest = encoded % scale;
        return Version::parse(std::to_string(major) + "." + std::to_string(rest / 100) + "." +
                              std::to_string(rest % 100));
    }
    return std::nullopt;
}

const CudnnRelease* Database::cudnn_release(const Version& version) const {
    for (const auto& release : cudnn_releases_) {
        if (release.version.covers(version) || release.version == version) return &release;
    }
    return nullptr;
}

const CudnnAptNewest* Database::cudnn_apt_newest(std::string_view package,
                                                 std::string_view distro) const {
    for (const auto& row : cudnn_apt_newest_) {
        if (row.package != package) continue;
        if (std::find(row.distros.begin(), row.distros.end(), distro) != row.distros.end())
            return &row;
    }
    return nullptr;
}

std::vector<const FrameworkBuild*> Database::framework_builds(std::string_view framework,
                                                              const Version& version) const {
    // A more specific row ("1.18.1") wins over a general one ("1.18") for the same variant.
    std::vector<const FrameworkBuild*> out;
    for (const auto& build : frameworks_) {
        if (build.framework != framework || !build.matches(version)) continue;
        auto same_variant = std::find_if(out.begin(), out.end(), [&](const FrameworkBuild* b) {
            return b->variant == build.variant;
        });
        if (same_variant == out.end()) {
            out.push_back(&build);
        } else if (build.version && (!(*same_variant)->version ||
                                     build.version->size() > (*same_variant)->version->size())) {
            *same_variant = &build;
        }
    }
    return out;
}

const FrameworkBuild* Database::framework_build(std::string_view framework, const Version& version,
                                                std::string_view variant) const {
    for (const FrameworkBuild* build : framework_builds(framework, version)) {
        if (variant.empty() ? build->is_default : build->variant == variant) return build;
    }
    return nullptr;
}

const CudnnLoadRule* Database::cudnn_load_rule(std::string_view framework) const {
    for (const auto& rule : cudnn_load_rules_) {
        if (rule.framework == framework) return &rule;
    }
    return nullptr;
}

std::optional<Version> Database::parse_compute_capability(std::string_view text) {
    std::string lower;
    for (char c : text) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::string_view rest = lower;
    for (std::string_view prefix : {"sm_", "compute_", "sm", "cc"}) {
        if (rest.substr(0, prefix.size()) == prefix) {
            rest.remove_prefix(prefix.size());
            break;
        }
    }
    // Arch-specific and family targets (sm_90a, sm_100f) name the same compute capability.
    if (!rest.empty() && (rest.back() == 'a' || rest.back() == 'f')) rest.remove_suffix(1);
    if (rest.find('.') != std::string_view::npos) {
        auto version = Version::parse(rest);
        if (version && version->size() == 2) return version;
        return std::nullopt;
    }
    if (!all_digits(rest) || rest.size() < 2 || rest.size() > 3) return std::nullopt;
    // "90" → 9.0, "120" → 12.0: the last digit is the minor.
    return Version::parse(std::string(rest.substr(0, rest.size() - 1)) + "." + rest.back());
}

const GpuArch* Database::gpu(std::string_view name) const {
    std::string wanted = normalize_gpu_name(name);
    if (wanted.empty()) return nullptr;
    for (const auto& gpu : gpus_) {
        for (const auto& product : gpu.products) {
            if (normalize_gpu_name(product) == wanted) return &gpu;
        }
    }
    if (auto cc = parse_compute_capability(name)) {
        for (const auto& gpu : gpus_) {
            if (gpu.compute_capability == *cc) return &gpu;
        }
    }
    return nullptr;
}

std::vector<const CudnnFlavor*> Database::cudnn_flavors_for(const Version& cuda) const {
    std::vector<const CudnnFlavor*> out;
    for (const auto& flavor : cudnn_flavors_) {
        if (flavor.cuda_min <= cuda && cuda <= flavor.cuda_max) out.push_back(&flavor);
    }
    return out;
}

}  // namespace cuvet::rules
