#pragma once
// Typed, validated view over rules/*.json (see rules/SCHEMA.md). Facts and
// lookups only: no check logic lives here (docs/architecture.md, "Principles").
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cuvet/rules/framework_catalog.hpp"
#include "cuvet/rules/packages.hpp"
#include "cuvet/rules/provenance.hpp"
#include "cuvet/rules/version.hpp"

namespace cuvet::rules {

struct DriverEntry {
    Version cuda;
    std::string release;
    std::optional<Version> min_driver;  // nullopt: unknown
    Provenance provenance;
};

struct MinorVersionCompat {
    int cuda_major = 0;
    std::optional<Version> min_driver;
    Provenance provenance;
};

struct ForwardCompat {
    std::string package;
    std::string path;
    bool datacenter_gpus_only = true;
    Provenance provenance;
};

// Answer of Database::min_driver_for.
struct DriverRequirement {
    Version matched_cuda;               // the table row used
    bool exact = false;                 // the asked version is that row (not a later patch)
    std::optional<Version> min_driver;  // nullopt: the row exists but the value is unknown
    Provenance provenance;
};

struct CudnnBuild {
    int cuda_major = 0;
    std::vector<Version> cuda;  // supported toolkit minors
    std::optional<Version> min_driver;
    std::optional<std::vector<Version>> compute_capabilities;  // nullopt: only a floor is known
    std::optional<Version> min_compute_capability;
    std::string note;
};

struct CudnnRelease {
    Version version;
    std::vector<CudnnBuild> builds;
    Provenance provenance;
};

// What apt installs for a cuDNN package named without a version from NVIDIA's CUDA repository of
// a distro: the highest version the index holds, whatever CUDA it was built for.
struct CudnnAptNewest {
    std::string package;               // "libcudnn8"
    std::vector<std::string> distros;  // as nvidia/cuda tags spell them: "ubuntu22.04"
    std::string version;               // "8.9.7.29-1+cuda12.2"
    int cuda_major = 0;
    Provenance provenance;
};

struct CudnnSonames {
    int major = 0;
    std::string main;                    // "libcudnn.so.9"
    std::vector<std::string> libraries;  // main first, then the sub-libraries
    bool sub_libraries_must_match = false;
    Provenance provenance;
};

struct CudnnVersionEncoding {
    std::vector<int> majors;
    std::string formula;
    Provenance provenance;
};

struct FrameworkBuild {
    std::string framework;           // "pytorch", "tensorflow", "onnxruntime", "jax", "cupy", …
    std::optional<Version> version;  // nullopt: every version
    std::optional<Version> until;    // set: the row covers releases version..until (inclusive)
    std::string variant;             // "cu121", "cuda12", "" when none
    std::optional<Version> cuda;     // one component = any minor of that major
    std::optional<Version> cudnn;
    std::optional<int> cudnn_major;
    bool is_default = false;
    std::vector<std::string> sonames;
    std::optional<Version> cuda_min;  // oldest toolkit the build runs with, when stated
    std::string package;              // pip distribution of this build: "jax-cuda12-plugin"
    std::string index;                // "pypi" or the index URL serving it; "" unknown
    std::string selected_by;  // the requirement that installs this build by default: "jax[cuda]"
    std::vector<Requirement> requirements;  // its Requires-Dist pins (CUDA/cuDNN wheels)
    // Its GPU path starts without cuDNN (ONNX Runtime 1.28's CUDA EP): a missing system cuDNN
    // does not disable it.
    bool cudnn_optional = false;
    Provenance provenance;

    // The pin on `package_name` ("nvidia-cudnn-cu12"), nullptr when none.
    const Requirement* requirement(std::string_view package_name) const;

    bool matches(const Version& framework_version) const;
};

struct CudnnLoadRule {
    std::string framework;
    std::string rule;  // "same_major_minor_at_least" or "same_major"; the words: error_texts
    Provenance provenance;
};

struct GpuArch {
    Version compute_capability;  // "8.6"
    std::string architecture;
    std::vector<std::string> products;
    std::optional<Version> first_cuda;
    std::optional<Version> last_cuda;  // nullopt with still_supported=false: unknown
    bool still_supported = false;      // "current" in the table
    // The first CUDA whose ptxas knows the arch-specific target sm_XYa (9.0: 12.0, though
    // sm_90 came with 11.8); nullopt: the same as first_cuda.
    std::optional<Version> arch_specific_first_cuda;
    Provenance provenance;

    int sm() const { return compute_capability.major() * 10 + compute_capability.minor(); }
};

struct SonameFact {
    std::string library;  // "cudart"
    std::string soname;   // "libcudart.so.11.0"
    std::vector<int> cuda_majors;
    bool any_cuda_major = false;
    Provenance provenance;
};

struct CudnnFlavor {
    Version cuda_min;
    Version cuda_max;
    std::string flavor_prefix;  // "cudnn8", "cudnn9", "cudnn"
    int cudnn_major = 0;
    Provenance provenance;
};

// One CUDA release's nvidia/cuda tags: published (still on Docker Hub) or deleted.
struct CudaImageTags {
    std::string cuda;       // as spelled in the tags: "12.4.1", "10.2"
    std::string support;    // published: "supported", "end_of_life", "" unknown
    bool complete = false;  // published: every tag of the release is listed
    std::vector<std::pair<std::string, std::vector<std::string>>> tags;  // os → flavours
    std::string replacement;  // deleted: the release whose tags to use instead
    Provenance provenance;

    const std::vector<std::string>* flavors(std::string_view os) const;
};

enum class CudaTagStatus { published, deleted, not_published, unknown };

// Answer of Database::nvidia_cuda_tag.
struct CudaTagAnswer {
    CudaTagStatus status = CudaTagStatus::unknown;
    std::string cuda;        // "11.4.0"; empty for `latest`
    std::string flavor;      // "cudnn8-runtime"
    std::string os;          // "ubuntu20.04"; empty when the tag has no OS suffix
    std::string support;     // published: "supported", "end_of_life" or ""
    std::string suggestion;  // deleted / not_published: the nearest live tag, "" when none
    Provenance provenance;   // the row that decided; empty for unknown
};

struct ImageEnvFact {
    std::string name;
    std::string meaning;
    Provenance provenance;
};

// One NCCL release and the CUDA releases NVIDIA built it for (nccl.json).
struct NcclRelease {
    Version version;            // "2.30.7"
    std::vector<Version> cuda;  // "12.9"; one component ("12") = some 12.x build
    bool complete = false;      // `cuda` lists every build; else one not listed is unknown
    Provenance provenance;

    // Whether NVIDIA built it for that CUDA major: nullopt when the list is partial and
    // names no build of that major (unknown, not "no").
    std::optional<bool> built_for_major(int cuda_major) const;
};

// The NCCL release one framework build ships and pins (nccl.json, framework_pins).
struct NcclPin {
    std::string framework;  // "pytorch"
    Version version;        // framework release; "2.12" covers 2.12.x
    std::string variant;    // "cu126"
    Version nccl;           // "2.29.3"
    Provenance provenance;
};

// One release of a kernel compiler (kernel_compilers.json): the releases of the framework
// that pins it and the assemblers its wheel bundles (e.g. <package>/backends/nvidia/bin/).
struct KernelCompilerRelease {
    Version version;               // "3.6.0"
    std::optional<Version> ptxas;  // CUDA release of bin/ptxas; nullopt: unknown
    // CUDA release of bin/ptxas-blackwell, which the compiler runs for sm >= 100 where the
    // wheel ships one. nullopt with blackwell_uses_ptxas: the wheel ships none (bin/ptxas
    // serves every target); nullopt otherwise: unknown.
    std::optional<Version> ptxas_blackwell;
    bool blackwell_uses_ptxas = false;
    Provenance ptxas_provenance;     // the row's provenance unless the ptxas facts have their own
    std::vector<Version> pinned_by;  // releases of the pinning framework; "2.10" covers 2.10.x
    Provenance provenance;
};

// A GPU kernel compiler packaged for Python that a framework's wheels pin and that bundles
// its own ptxas. Both names are frameworks of the catalog (rules/frameworks.json).
struct KernelCompiler {
    std::string framework;  // the compiler
    std::string pinned_by;  // the framework whose wheels pin it
    std::vector<KernelCompilerRelease> releases;

    // The row of one release; nullptr when the table has none.
    const KernelCompilerRelease* release(const Version& version) const;
    // The release one release of the pinning framework pins; the most specific entry wins
    // ("2.12.1" over "2.12"). nullptr: unknown.
    const KernelCompilerRelease* pinned_by_release(const Version& pinner) const;
};

// One loaded file, for `cuvet rules`.
struct TableInfo {
    std::string name;    // "cudnn"
    std::string origin;  // "built-in" or the override's path
    std::string data_version;
    std::string data_date;  // "2026-11-23" from a data_version "2026.11.23-3"; "" otherwise
    std::string newest;     // the newest entry, "13.4.1" (newest_entry()); "" when none
    std::string description;
    std::size_t facts = 0;
};

struct CudnnSubLibraries;   // cuvet/rules/cudnn_sub_libraries.hpp
struct ByNameLoad;          // cuvet/rules/by_name_loads.hpp
struct TablesReadOnDemand;  // src/rules/tables_read_on_demand.hpp

class Database {
public:
    Database();
    // The compiled-in tables, each replaced by rules_dir/<same name> when that exists.
    // Throws cuvet::Error(input) with "<file>: <json pointer>: <problem>" on a bad file.
    static Database load(const std::optional<std::filesystem::path>& rules_dir = std::nullopt);
    // From {file name, json text, origin label} triples; every known table must be present.
    struct File {
        std::string name;  // "cudnn.json"
        std::string text;
        std::string origin;  // shown in errors: "rules/cudnn.json" or a path
    };
    static Database from_files(const std::vector<File>& files);

    static const std::vector<std::string>& table_names();  // "cuda_drivers", "cudnn", …

    const std::vector<TableInfo>& tables() const { return tables_; }
    // The newest entry of a table, so a user sees how current the facts are: the newest
    // CUDA release (cuda_drivers), cuDNN release, compute capability, CUDA major with a
    // soname, CUDA release with published nvidia/cuda tags, NCCL release, each kernel
    // compiler's newest release;
    // "" for a table without one.
    std::string newest_entry(std::string_view table) const;

    // --- CUDA toolkit and driver
    // The row with the greatest CUDA <= `cuda` in the same major.minor; nullopt when
    // that minor is not in the table.
    std::optional<DriverRequirement> min_driver_for(const Version& cuda) const;
    const MinorVersionCompat* minor_version_compat(int cuda_major) const;
    const ForwardCompat& forward_compat() const { return forward_compat_; }
    const std::vector<DriverEntry>& driver_entries() const { return drivers_; }

    // --- sonames
    const SonameFact* soname(std::string_view soname) const;
    // The CUDA major a soname pins, when exactly one; nullopt for unknown or shared sonames.
    std::optional<int> cuda_major_for_soname(std::string_view soname) const;
    const CudnnSonames* cudnn_sonames(int major) const;
    // 9 for "libcudnn_ops.so.9" (any soname a cuDNN major ships).
    std::optional<int> cudnn_major_for_soname(std::string_view soname) const;
    const std::vector<SonameFact>& sonames() const { return sonames_; }

    // --- cuDNN
    // What cudnnGetVersion() returned → the version: 91900 → 9.19.0, 8902 → 8.9.2.
    std::optional<Version> decode_cudnn_version(long encoded) const;
    // The release row whose version covers `version` ("9.5.1.17" → the 9.5.1 row).
    const CudnnRelease* cudnn_release(const Version& version) const;
    const std::vector<CudnnRelease>& cudnn_releases() const { return cudnn_releases_; }
    // The build apt picks for an unpinned `package` on `distro`; nullptr when the rules do not say.
    const CudnnAptNewest* cudnn_apt_newest(std::string_view package, std::string_view distro) const;
    const std::vector<CudnnVersionEncoding>& cudnn_version_encodings() const {
        return cudnn_encodings_;
    }
    const std::vector<CudnnSonames>& cudnn_soname_sets() const { return cudnn_sonames_; }

    // --- frameworks
    // Every build row of `framework` whose version matches (all variants).
    std::vector<const FrameworkBuild*> framework_builds(std::string_view framework,
                                                        const Version& version) const;
    // The row for one variant ("cu121"); empty variant = the default build.
    const FrameworkBuild* framework_build(std::string_view framework, const Version& version,
                                          std::string_view variant) const;
    const CudnnLoadRule* cudnn_load_rule(std::string_view framework) const;
    const std::vector<FrameworkBuild>& framework_builds() const { return frameworks_; }
    // The catalog of the frameworks.json this database loaded (a --rules-dir or pulled bundle
    // may bring its own); the scan and the inventory read the built-in one.
    const FrameworkCatalog& framework_catalog() const { return framework_catalog_; }
    // The framework's own text for `kind` as printed by `version` (nullopt: the newest wording).
    const FrameworkErrorText* framework_error_text(std::string_view framework,
                                                   std::string_view kind,
                                                   const std::optional<Version>& version) const;
    const std::vector<FrameworkErrorText>& framework_error_texts() const {
        return framework_errors_;
    }

    // --- Python packages (src/rules/package_lookups.cpp)
    // By pip/conda name, PEP 503 normalized ("Jax_CUDA12.Plugin" finds jax-cuda12-plugin).
    const PythonPackage* python_package(std::string_view name,
                                        std::string_view ecosystem = "pypi") const;
    // The framework build a package release installs: its row's framework/variant, or the build
    // row naming the package. nullptr: unknown (version outside every row, or no such package).
    const FrameworkBuild* build_for_package(std::string_view name, const Version& version) const;
    const std::vector<PythonPackage>& python_packages() const { return python_packages_; }

    // --- NGC containers
    // `image` is "pytorch" or "nvcr.io/nvidia/pytorch"; `release` is "24.05" (a tag such as
    // "24.05-py3" is accepted too).
    const NgcContainerRelease* ngc_container(std::string_view image,
                                             std::string_view release) const;
    const std::vector<NgcContainerRelease>& ngc_containers() const { return ngc_containers_; }

    // --- NCCL (src/rules/nccl_lookups.cpp)
    // The row of one NCCL release ("2.30.7"); nullptr when the table has none.
    const NcclRelease* nccl_release(const Version& version) const;
    // The NCCL the framework build ships and pins; a more specific row ("2.12.1") wins over
    // a general one ("2.12"). nullptr: unknown.
    const NcclPin* nccl_pin(std::string_view framework, const Version& version,
                            std::string_view variant) const;
    const std::vector<NcclRelease>& nccl_releases() const { return nccl_releases_; }
    const std::vector<NcclPin>& nccl_pins() const { return nccl_pins_; }

    // --- GPU kernel compilers (src/rules/kernel_compiler_lookups.cpp)
    // The compiler a catalog framework name stands for; nullptr when the table has none.
    const KernelCompiler* kernel_compiler(std::string_view framework) const;
    const std::vector<KernelCompiler>& kernel_compilers() const { return kernel_compilers_; }

    // --- GPUs
    // A product ("H100", "rtx 4090"), "sm_90", "sm_90a", "compute_90", "9.0" or "90".
    const GpuArch* gpu(std::string_view name) const;
    // The compute capability named by "sm_90"/"9.0"/"90", without the table.
    static std::optional<Version> parse_compute_capability(std::string_view text);
    const std::vector<GpuArch>& gpus() const { return gpus_; }

    // --- nvidia/cuda images (Dockerfile linter)
    std::vector<const CudnnFlavor*> cudnn_flavors_for(const Version& cuda) const;
    const std::vector<CudnnFlavor>& cudnn_flavors() const { return cudnn_flavors_; }
    // A tag of nvidia/cuda ("11.4.0-cudnn8-runtime-ubuntu20.04"; "" or "latest" for the
    // untagged pull): published, deleted by NVIDIA, never published, or unknown (a release
    // the table does not list completely). See rules/SCHEMA.md.
    CudaTagAnswer nvidia_cuda_tag(std::string_view tag) const;
    const std::vector<CudaImageTags>& cuda_image_tags() const { return cuda_image_tags_; }
    const std::vector<CudaImageTags>& deleted_cuda_image_tags() const {
        return deleted_cuda_image_tags_;
    }
    const std::vector<ImageEnvFact>& image_env() const { return image_env_; }

private:
    friend class Loader;
    friend const std::vector<CudnnSubLibraries>& cudnn_sub_libraries(const Database& db);
    friend const std::vector<ByNameLoad>& by_name_loads(const Database& db);
    std::vector<TableInfo> tables_;
    std::vector<DriverEntry> drivers_;
    std::vector<MinorVersionCompat> minor_compat_;
    ForwardCompat forward_compat_;
    std::vector<CudnnVersionEncoding> cudnn_encodings_;
    std::vector<CudnnSonames> cudnn_sonames_;
    std::vector<CudnnRelease> cudnn_releases_;
    std::vector<CudnnAptNewest> cudnn_apt_newest_;
    std::vector<FrameworkBuild> frameworks_;
    FrameworkCatalog framework_catalog_;
    std::vector<CudnnLoadRule> cudnn_load_rules_;
    std::vector<GpuArch> gpus_;
    std::vector<SonameFact> sonames_;
    std::vector<CudnnFlavor> cudnn_flavors_;
    std::vector<CudaImageTags> cuda_image_tags_;
    std::vector<CudaImageTags> deleted_cuda_image_tags_;
    std::vector<std::pair<std::string, Provenance>>
        deleted_cuda_tag_forms_;  // "latest", "without_os"
    std::vector<ImageEnvFact> image_env_;
    std::vector<FrameworkErrorText> framework_errors_;
    std::vector<PythonPackage> python_packages_;
    std::vector<NgcContainerRelease> ngc_containers_;
    std::vector<NcclRelease> nccl_releases_;
    std::vector<NcclPin> nccl_pins_;
    std::vector<KernelCompiler> kernel_compilers_;
    // The parts of the tables read again from their text on the first ask and kept, so checks
    // do not parse the JSON on every call; copies share them (the tables never change).
    std::shared_ptr<TablesReadOnDemand> on_demand_;
};

}  // namespace cuvet::rules
