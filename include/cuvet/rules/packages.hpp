#pragma once
// Facts about what users install on top of CUDA: pip/conda package names and the
// framework build they select (python_packages.json), NGC framework containers
// (ngc_containers.json) and the frameworks' own error texts per release
// (frameworks.json, error_texts). Schema: rules/SCHEMA.md.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cuvet/rules/provenance.hpp"
#include "cuvet/rules/version.hpp"

namespace cuvet::rules {

// One Requires-Dist entry of a wheel (or a conda "depends" entry): "nvidia-cudnn-cu12",
// ">=9.8,<10.0".
struct Requirement {
    std::string name;
    std::string spec;  // PEP 440 specifier set as published, "" = any version

    // The bounds of a ">=A,<B" spec (also "==A", "~=A.B", "<=A"); nullopt when the spec
    // states none. `upper` is exclusive unless `upper_inclusive`.
    std::optional<Version> lower() const;
    std::optional<Version> upper() const;
    bool upper_inclusive() const;
};

// A package another one's release pulls in, with the extras that do (none: always).
struct PackageRequirement {
    std::string package;  // PEP 503 name: "flashinfer-python"
    std::vector<std::string> extras;
    Provenance provenance;
};

// A wheel index the project no longer publishes to (detectron2's find-links pages stopped at
// 0.6): an unpinned install from it gets the same last release on every rebuild.
struct FrozenWheelIndex {
    std::string url;  // prefix of every page: "https://dl.fbaipublicfiles.com/detectron2/wheels/"
    Version last_release;
    Provenance provenance;
};

// A package name a user writes in `pip install` / `conda install` and what it means.
struct PythonPackage {
    std::string name;       // PEP 503 normalized: "jax-cuda12-plugin", "cupy-cuda12x"
    std::string ecosystem;  // "pypi" or "conda"
    // "framework", "gpu_plugin", "cuda_library", "cpu_only", "extension", or "jit_kernels"
    // (pure Python whose GPU kernels another package's compiler builds at run time: no CUDA
    // build of its own)
    std::string role;
    std::string framework;  // frameworks.json framework it installs or extends; "" none
    std::string variant;    // frameworks.json variant it selects; "" = decided by version/index
    std::optional<int> cuda_major;   // nullopt: depends on the release or index, or none
    std::optional<int> cudnn_major;  // nullopt: unknown or not needed
    std::string provides;  // cuda_library: the library it ships ("libcudnn.so.9"), else ""
    std::string index;     // where it is published: "pypi", an index URL, a conda channel
    // Compiles CUDA code when installed or at run time (source-only packages, JIT ops): the
    // image needs the toolkit (nvcc, headers), i.e. a -devel base is deliberate.
    bool needs_toolkit = false;
    // Extras that pull the package's GPU dependency (rembg[gpu] brings onnxruntime-gpu);
    // when set, the package without one of them carries no CUDA.
    std::vector<std::string> cuda_extras;
    // The project's own wheel index whose cuXYZ sub-indexes serve its CUDA builds and nothing
    // else (llama-cpp-python's abetlen.github.io/…/whl/cu123); when set, the package from
    // anywhere else is a source build. "" none.
    std::string cuda_wheel_index;
    // Whose CUDA libraries its CUDA build loads: "system" (the image's) or "bundled" (its own
    // or nvidia-* wheels); "" not stated.
    std::string cuda_libraries;
    // Packages it requires that the rules say something of (sglang[srt] pulls
    // flashinfer-python, which compiles with nvcc): their facts hold for it too.
    std::vector<PackageRequirement> requires_packages;
    // Set when the package works on the CPU and uses its CUDA build only when the code asks for
    // the GPU (xgboost's device="cuda"): with its source, else nullopt.
    std::optional<Provenance> gpu_optional;
    // Set when every release is an sdist compiled at install against the image's own toolkit
    // (dlib, pycuda): no release brings a CUDA build of its own. With its source, else nullopt.
    std::optional<Provenance> source_only;
    std::vector<FrozenWheelIndex> frozen_wheel_indexes;
    Provenance provenance;
};

// What one NGC framework container (nvcr.io/nvidia/<image>:<release>-…) ships.
struct NgcContainerRelease {
    std::string image;              // "pytorch", "tensorflow", "jax", "tritonserver"
    std::string release;            // "24.05"
    std::string framework_version;  // as the release notes print it: "2.4.0a0+07cecf4"; "" unknown
    std::optional<Version> framework;  // its leading numeric part ("2.4.0"); nullopt unknown
    std::optional<Version> cuda;
    std::optional<Version> cudnn;
    // The other libraries the notes list, by name; a null version: listed as unknown.
    std::map<std::string, std::optional<Version>> ships;
    std::optional<Version> min_driver_branch;  // "545": R545 or later
    std::vector<Version> datacenter_drivers;   // older branches allowed on data-center GPUs
    std::string ubuntu;                        // "22.04"; "" unknown
    Provenance provenance;
};

// A framework's own message for one failure, as printed by the releases in range.
struct FrameworkErrorText {
    std::string framework;               // "tensorflow"
    std::string kind;                    // "cudnn_version_mismatch", "cuda_ep_unavailable", …
    std::optional<Version> min_version;  // first release printing it; nullopt: since ever/unknown
    std::optional<Version>
        max_version;      // last release printing it ("2.11" covers 2.11.x); nullopt: still
    std::string message;  // {built}/{runtime}/{cuda_major}/{cudnn_major}/{library} placeholders
    // How it prints {built}/{runtime}: "dotted" (8.6.0), "tuple" ((8, 6, 0)), "encoded"
    // (cudnnGetVersion(): 8600, 90800); "" when the sources do not show it.
    std::string version_format;
    // With LD_LIBRARY_PATH set the framework appends a hint whose words depend on the path
    // (PyTorch 2.x: "one possibility is that there is a conflicting cuDNN in LD_LIBRARY_PATH.").
    bool ld_library_path_hint = false;
    Provenance provenance;

    bool covers(const Version& framework_version) const;
};

// Values for the placeholders of a framework message (error_texts).
struct MessageValues {
    std::string built;        // {built}: the cuDNN/CUDA version the framework was built with
    std::string runtime;      // {runtime}: the version found at run time
    std::string cuda_major;   // {cuda_major}: the build's CUDA major ("12")
    std::string cudnn_major;  // {cudnn_major}: the build's cuDNN major ("9")
    std::string library;      // {library}: a soname ("libcudnn.so.9")
    // TensorFlow 1.1-1.7 print cuDNN versions encoded (6021) with their ABI
    // "compatibility version" (6000); {runtime}/{built} are then encoded too.
    std::string runtime_compat;  // {runtime_compat}
    std::string built_compat;    // {built_compat}
};

// The message with every placeholder that has a value filled in; the others stay as written.
std::string fill_message(std::string_view text, const MessageValues& values);

}  // namespace cuvet::rules
