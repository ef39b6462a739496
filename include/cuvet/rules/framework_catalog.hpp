#pragma once
// The framework catalog (rules/frameworks.json, "catalog"): one record per GPU framework
// saying how pip, conda and the framework's own version files spell it, so the scan and
// the inventory recognise an install from data, not from per-framework code. Adding a
// framework is a record here (docs/architecture.md, "Adding a framework").
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cuvet/rules/provenance.hpp"
#include "cuvet/rules/version.hpp"

namespace cuvet::rules {

// How `cuvet lint` reads the CUDA build a pip install of one spelling brings (a spelling's
// "wheel" in frameworks.json; rules/SCHEMA.md has each field's meaning and rules). Each
// field is a fact about the framework's packaging, with the policy's source.
struct WheelPolicy {
    // Which installs are GPU builds: "always"; "never" (the CPU package: lint sees no GPU
    // stack); "extras" (only with an extra that starts with one of gpu_extras, or a version or
    // index that states the CUDA); "url" (only a wheel whose URL holds one of gpu_url_words;
    // any other install is a CPU build).
    std::string gpu = "always";
    std::vector<std::string> gpu_extras;
    std::vector<std::string> gpu_url_words;
    // Whose CUDA libraries a GPU build loads: "system" (the image's) or "bundled" (its own or
    // nvidia-* wheels it requires), and what changes that.
    std::string libraries = "system";
    std::vector<std::string> bundled_with_extras;  // an extra that bundles them: "and-cuda"
    std::vector<std::string> system_extras;        // part of an extra that does not: "local"
    // Only the index's package brings them: a wheel file installed from a path in the image
    // (TensorRT's tar ships python/tensorrt-*.whl, bindings for the tar's lib/) loads the system's.
    bool file_wheel_loads_system = false;
    std::optional<Version> bundled_from;  // the first release that bundles them
    // The release's row among the record's builds (frameworks.json "builds").
    std::vector<std::string> variants;  // for a stated CUDA: "cu{cuda_nodot}", "cuda{cuda_major}"
    bool default_build = false;         // no CUDA stated: the release's default (PyPI's) build
    bool any_build = false;             // one build per release: its first row, any variant
    std::string selected_by;            // rows an extra selects by itself: "jax[cuda]"
    bool build_decides_cuda = false;    // the row's CUDA replaces one the index or name stated
    bool complete_builds = false;       // the rows list every CUDA build of every release
    // "{package} {version} on PyPI is the {variant} build"; {cuda} and {row_build} too
    std::string evidence;
    // How it meets the image's libraries.
    bool system_cudnn = false;  // a build that bundles nothing dlopens the system's libcudnn
    std::optional<Version> cpu_before;  // releases before this one are CPU-only packages
    bool unpinned_default = false;      // unpinned, pip takes the newest release's default build
    // A build whose local version states its CUDA loads the system's CUDA and runs the
    // toolkit's ptxas/nvlink: it needs a -devel image (jaxlib+cuda12.cudnn89).
    bool local_build_needs_toolkit = false;
    // With pip --no-deps its CUDA libraries are left out (they come as requirements) from this
    // CUDA major on: 0 for every build; nullopt when they are inside the wheel.
    std::optional<int> deps_bring_libraries_from;
    // Other names: packages released with each of its builds from the same indexes, which
    // pull it (torchvision); the prefix of its extensions' names, which the CUDA indexes serve
    // per CUDA build (torch-scatter); names on PyPI that only fail the install, with the words they
    // fail with; the name its GPU build moved to from a release on (tensorflow-gpu).
    std::vector<std::string> companions;
    std::vector<std::string> extension_prefixes;  // its extensions' names: "torch-" (torch-scatter)
    std::vector<std::string> placeholders;
    std::string placeholder_error;
    std::string retired_for;
    std::optional<Version> retired_since;
    Provenance provenance;
};

// One name a framework's distribution is installed under, and what it installs.
// Patterns are literal text and placeholders, each a run of digits: {cuda_major} (1-2 digits:
// "jax-cuda12-plugin" is CUDA 12), {cuda_nodot} (2-3 digits, the last one the minor:
// "cupy-cuda102" is CUDA 10.2), {n} (digits that say nothing kept here).
struct PackageSpelling {
    std::string pattern;    // PEP 503 name (pip) or conda name
    std::string component;  // the inventory component: "torch", "jax-cuda-plugin"
    std::string category;   // "framework" or "cuda-library"
    std::string dir;        // its package dir under site-packages; may hold {cuda_major}
    // Tails of a version that state the CUDA build: "+cuda{cuda_major}.cudnn{n}" (jaxlib
    // 0.4.30+cuda12.cudnn89), ".post{cuda_nodot}" (paddlepaddle-gpu 2.6.1.post120).
    std::vector<std::string> local_versions;
    // Whose CUDA libraries the wheel loads: "system" (the image's: mxnet-cu112) or "bundled"
    // (its own or nvidia-* wheels); "" where the catalog does not say. `cuvet lint` judges a
    // wheel it has no other model for by this and the CUDA its name states.
    std::string cuda_libraries;
    // Extras that select a CUDA build, matched at the start of each extra: "cuda{cuda_major}"
    // (jax[cuda12], jax[cuda12_pip]). Empty: its extras state no CUDA.
    std::vector<std::string> cuda_extras;
    // How `cuvet lint` judges a pip install of it; nullopt: by name and cuda_libraries only.
    std::optional<WheelPolicy> wheel;
};

// The CUDA a version's tail states: "12" from "+cuda12.cudnn89", and that tail.
struct LocalVersionCuda {
    std::string cuda;
    std::string tail;   // "+cuda12.cudnn89", ".post120"
    std::string cudnn;  // from {cudnn_nodot}: "8.9" of "cudnn89"; "" when the tail has none
};

// A file a framework writes its own version (and build facts) into.
struct VersionFile {
    std::string path;  // "torch/version.py"; its first segment is the package dir, the root
    std::string component;
    std::vector<std::string> version;  // Python names tried in order: {"__version__", "_version"}
    // inventory attribute -> the Python name holding it: {"cuda", "cuda_version"}
    std::vector<std::pair<std::string, std::string>> attributes;
    Provenance provenance;
};

// A C header whose #defines state a version: TensorRT's NvInferVersion.h.
struct VersionHeader {
    std::string file;                  // its base name: "NvInferVersion.h"
    std::string component;             // the inventory component: "tensorrt"
    std::string category;              // "framework" or "cuda-library"
    std::vector<std::string> defines;  // the parts of the version, in order: NV_TENSORRT_MAJOR, …
    Provenance provenance;
};

// A Docker Hub repository of the framework's own images, and how its tags state the build.
struct DockerImage {
    // "pytorch/pytorch" (docker.io), or with its registry: "nvcr.io/nvidia/l4t-ml".
    std::string repository;
    // "version-cuda-cudnn-flavor": the tag states the release, CUDA, cuDNN and flavor
    // (2.1.0-cuda12.1-cudnn8-runtime); "version-word": the tag's first part is the release,
    // and `gpu_word` anywhere in it marks the GPU build (2.15.0-gpu); "unstated": every tag
    // carries the framework's GPU build, but states neither its release nor its CUDA
    // (l4t-ml:r36.2.0-py3).
    std::string tag_format;
    std::string gpu_word;
    Provenance provenance;
};

// A part of a package index's URL that states the CUDA build of what it serves
// ("/onnxruntime-cuda-{cuda_major}": ONNX Runtime's CUDA feeds), with its source.
struct IndexUrl {
    std::string pattern;
    Provenance provenance;
};

// A path below site-packages the catalog names for one purpose, with its source.
struct CatalogPath {
    std::string path;  // "torch/lib/libtorch_cuda.so"; "" when the record names none
    Provenance provenance;
};

// An extension module the framework imports only when one API is first used (CuPy's
// cupy.cuda.cufft, imported through cupy.cuda's module __getattr__ by cupy.fft): a library only
// it needs breaks that API, never `import` or the rest.
struct LazyModule {
    std::string path;  // below site-packages, without its ABI tail: "cupy/cuda/cufft"
    std::string api;   // what fails without its libraries: "cupy.fft"
    Version since;     // the first release known to import it lazily; older ones are eager
    Provenance provenance;
};

struct FrameworkRecord {
    std::string framework;                  // as frameworks.json builds name it: "pytorch"
    std::vector<std::string> import_names;  // what `import` names: "torch"; empty unknown
    // Words that, found in an image's name or a local wheel's project name (any case, anywhere),
    // say the framework is inside: "paddle" in paddlepaddle/paddle:2.5.1-gpu. Empty: none.
    std::vector<std::string> name_words;
    // The inventory component validate judges as the install ("torch", "jaxlib"); "" when none
    // is (Triton is judged with the torch that pins it).
    std::string install;
    std::vector<PackageSpelling> pip;
    std::vector<PackageSpelling> conda;
    std::vector<VersionFile> version_files;
    std::vector<VersionHeader> version_headers;
    // Prefixes of the environment variables the framework reads that change what it loads or
    // builds for ("TORCH_CUDA" of TORCH_CUDA_ARCH_LIST, "XLA_" of XLA_FLAGS): the inventory
    // reports them and the lock records them.
    std::vector<std::string> env_prefixes;
    Provenance env_provenance;
    // Its library whose load maps its whole GPU stack: the live probe preloads it.
    CatalogPath gpu_library;
    // The library of its CUDA backend, opened only when a session asks for the GPU (ONNX
    // Runtime's CUDA execution provider): the inventory records it on the install.
    CatalogPath cuda_provider;
    // A dir holding CUDA headers it bundles for its own compiler ("triton/backends"): no
    // runtime, never the image's CUDA toolkit.
    CatalogPath bundled_headers;
    std::vector<DockerImage> docker_images;
    std::vector<LazyModule> lazy_modules;
    // Index URLs whose address states the CUDA build of the framework they serve.
    std::vector<IndexUrl> pip_indexes;
    // Conda packages whose version is the CUDA release the framework's conda build takes
    // ("pytorch-cuda=12.1"), with their source.
    std::vector<std::string> conda_cuda_selectors;
    Provenance conda_cuda_provenance;
    // Variables that ask its extension builder for CUDA code (TORCH_CUDA_ARCH_LIST): a stage
    // that sets one compiles with nvcc.
    std::vector<std::string> build_variables;
    Provenance build_variables_provenance;
    // Hosts that serve its official wheels (a wheel URL elsewhere is somebody's rebuild).
    std::vector<std::string> wheel_hosts;
    Provenance wheel_hosts_provenance;
    // pip packages that install the same module, so one overwrites the other's files
    // (onnxruntime, onnxruntime-gpu), the module, and what a GPU install then lacks.
    std::vector<std::string> exclusive_pip;
    std::string exclusive_module;
    std::string exclusive_loses;
    Provenance exclusive_provenance;
    // Debian packages that install its Python API (apt `tensorrt`); a name ending in '*' is a
    // prefix ("python3-libnvinfer*").
    std::vector<std::string> apt_bindings;
    Provenance apt_provenance;
    Provenance provenance;
};

// A pip name `cuvet lint` judges as one framework's install, and how.
struct WheelMatch {
    enum class Kind {
        spelling,     // the spelling itself: its policy decides
        companion,    // released with each build of the spelling (torchvision beside torch)
        placeholder,  // a name that only fails the install (pip's "pytorch")
    };
    const FrameworkRecord* framework = nullptr;
    const PackageSpelling* spelling = nullptr;
    const WheelPolicy* policy = nullptr;
    Kind kind = Kind::spelling;
};

// A package name recognised by one spelling of one framework.
struct PackageMatch {
    const FrameworkRecord* framework = nullptr;
    const PackageSpelling* spelling = nullptr;
    std::string cuda;  // from {cuda_major} / {cuda_nodot}: "12", "10.2"; "" when none
    std::string dir;   // the spelling's dir with its placeholder filled in
};

// A path that is one of the catalog's version files.
struct VersionFileMatch {
    const FrameworkRecord* framework = nullptr;
    const VersionFile* file = nullptr;
    std::string root;  // the package dir: "/usr/lib/python3/dist-packages/torch"
};

class FrameworkCatalog {
public:
    FrameworkCatalog() = default;
    explicit FrameworkCatalog(std::vector<FrameworkRecord> records);

    const std::vector<FrameworkRecord>& records() const { return records_; }
    const FrameworkRecord* find(std::string_view framework) const;
    // The framework whose install an inventory component is ("jaxlib" → jax); nullptr for others.
    const FrameworkRecord* by_install(std::string_view component) const;

    // The CUDA an index URL states through some record's pip_indexes ("12" and the part that
    // says it, "/onnxruntime-cuda-12"); nullopt when none does.
    std::optional<LocalVersionCuda> index_cuda(std::string_view url) const;
    // Whether a conda package is some record's CUDA selector ("pytorch-cuda").
    bool is_conda_cuda_selector(std::string_view name) const;
    // The CUDA one of a comma-separated list of extras selects by the spelling's cuda_extras
    // ("cuda12_pip" → "12"); nullopt when none does.
    static std::optional<LocalVersionCuda> extras_cuda(const PackageMatch& match,
                                                       std::string_view extras);
    // The spelling with a wheel policy, companion or placeholder a pip name is; nullopt when
    // lint has no policy for it.
    std::optional<WheelMatch> wheel(std::string_view pip_name) const;
    // Every record's build_variables.
    std::vector<std::string> build_variables() const;
    // Whether a pip name starts like some policy's extensions ("torch-scatter").
    bool is_extension_name(std::string_view pip_name) const;
    // Whether a host serves some record's official wheels.
    bool official_wheel_host(std::string_view host) const;
    // Whether a Debian package installs some record's Python API.
    bool apt_binding(std::string_view dpkg_name) const;
    // A pip distribution name in any spelling ("Jax_CUDA12.Plugin" is "jax-cuda12-plugin").
    std::optional<PackageMatch> pip(std::string_view distribution) const;
    std::optional<PackageMatch> conda(std::string_view name) const;
    std::optional<VersionFileMatch> version_file(std::string_view path) const;
    // The header of that base name some record reads a version from; nullptr for others.
    const VersionHeader* version_header(std::string_view file_name) const;
    // Every record's env_prefixes, so callers ask once: "TORCH_CUDA", "XLA_", …
    std::vector<std::string> env_prefixes() const;
    // A path of one of a record's CatalogPath kinds (&FrameworkRecord::gpu_library): the
    // record it belongs to, and the site-packages dir in front of it; nullopt when none is.
    struct PathMatch {
        const FrameworkRecord* framework = nullptr;
        std::string site;  // "/usr/lib/python3/dist-packages"
    };
    std::optional<PathMatch> path_of(CatalogPath FrameworkRecord::*kind,
                                     std::string_view path) const;
    // The record whose Docker Hub repository this is ("pytorch/pytorch"), and that image.
    struct ImageMatch {
        const FrameworkRecord* framework = nullptr;
        const DockerImage* image = nullptr;
    };
    std::optional<ImageMatch> docker_image(std::string_view repository) const;
    // The lazily imported module this image path is (".../cupy/cuda/cufft.cpython-312-….so"),
    // with its record; nullptr when it is none.
    struct LazyMatch {
        const FrameworkRecord* framework = nullptr;
        const LazyModule* module = nullptr;
    };
    std::optional<LazyMatch> lazy_module(std::string_view path) const;
    // True when the path lies in a dir some record says holds bundled compiler headers.
    bool in_bundled_headers(std::string_view path) const;
    // The CUDA a version of the matched distribution states in its tail, by its spelling.
    static std::optional<LocalVersionCuda> local_version_cuda(const PackageMatch& match,
                                                              std::string_view version);

private:
    std::vector<FrameworkRecord> records_;
};

// The catalog as compiled in, read once: the scan and the inventory run without a rules
// database (--rules-dir still checks an overriding frameworks.json when validate loads it).
const FrameworkCatalog& builtin_framework_catalog();

}  // namespace cuvet::rules
