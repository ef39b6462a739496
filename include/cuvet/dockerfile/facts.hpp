#pragma once
// Stack facts read from a Dockerfile, per stage: what the base image brings
// (CUDA, cuDNN, distro, a framework), what pip / conda / apt install (with
// the CUDA each package is built for), holds, and the ENV that matters.
// Facts only: judging them against the rules database is the checks' job.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "cuvet/dockerfile/parser.hpp"
#include "cuvet/dockerfile/stages.hpp"

namespace cuvet::dockerfile {

struct ImageRef {
    std::string registry;    // "docker.io", "nvcr.io"
    std::string repository;  // "nvidia/cuda", "library/ubuntu"
    std::string tag;         // "latest" when none was given
    std::string digest;      // "sha256:…" or empty
};
ImageRef parse_image_ref(std::string_view reference);

enum class BaseKind {
    other,  // an image we know nothing CUDA-specific about
    scratch,
    unresolved,   // FROM $X with X unknown at lint time
    nvidia_cuda,  // nvidia/cuda:<cuda>-[cudnnN-]<flavor>-<os>
    // A framework's own image whose tag states its CUDA and cuDNN:
    // pytorch/pytorch:<torch>-cuda<x.y>-cudnn<N>-<runtime|devel>.
    framework_cuda_tag,
    // A framework's own GPU image whose tag states only the release; the release's tested
    // build says the CUDA: tensorflow/tensorflow:<tf>-gpu. Or not even the release
    // (nvcr.io/nvidia/l4t-ml:r36.2.0-py3): the framework is in the base, its build unknown.
    framework_release,
    ngc,  // nvcr.io/nvidia/<framework>:<YY.MM>-py3
};

struct BaseFacts {
    std::string reference;  // as substituted
    ImageRef image;
    BaseKind kind = BaseKind::other;
    std::string cuda;         // from the tag: "12.1.1", "12.1"; empty: unknown
    std::string cudnn_token;  // as spelled in the tag: "cudnn8", "cudnn", ""
    int cudnn_major = 0;      // 0: none or unknown
    std::string flavor;       // "base", "runtime", "devel", ""
    std::string distro;       // "ubuntu22.04"
    std::string framework;    // "pytorch", "tensorflow" (framework images)
    std::string framework_version;
    std::string ngc_release;  // "24.01"
    int line = 0;
};

enum class Manager { pip, conda, apt };
std::string_view to_string(Manager manager);

struct Package {
    Manager manager = Manager::pip;
    std::string name;     // normalised: lower case; pip '_' and '.' → '-'
    std::string extras;   // "and-cuda", "cuda12"
    std::string spec;     // version constraint as written: "==2.1.0+cu121", "=8.9.*"
    std::string version;  // the exact version when pinned, else empty
    bool pinned = false;  // an exact version: a rebuild installs the same thing
    // The CUDA the package is built for, as far as the command says:
    // "12.1" (+cu121, …/whl/cu121, pytorch-cuda=12.1), "12" (cupy-cuda12x,
    // nvidia-*-cu12, jax[cuda12]), "cpu" (…/whl/cpu), "" unknown.
    std::string cuda;
    std::string cuda_evidence;  // what said so: "index URL https://…/cu121"
    std::string word;           // the argument as written (after substitution)
    std::string index_url;      // pip --index-url / --extra-index-url / -f, conda channels
    // The CUDA index came from --extra-index-url / -f, so PyPI is searched too and
    // an unpinned install takes the newest release of either (often PyPI's).
    bool pypi_also = false;
    // pip --no-deps: none of its requirements (torch's nvidia-* wheels) come with it.
    bool no_deps = false;
    int line = 0;
    int end_line = 0;
    std::size_t stage = 0;   // the stage whose RUN installed it
    bool inherited = false;  // installed in a parent stage (FROM) or copied (COPY --from)
};

// An install whose packages the linter cannot see: a requirements/environment/lock
// file, a git or URL requirement, a local project or wheel built elsewhere.
struct RequirementsFile {
    Manager manager = Manager::pip;
    std::string path;  // the file, URL or path as written; content unknown to the linter
    int line = 0;
    std::string kind = "requirements file";  // "lock file", "git URL", "local project", …
    bool constraints = false;                // -c: limits versions, installs nothing
    // The indexes the same pip command names (--index-url, --extra-index-url, -f): pip
    // searches them for the file's requirements too.
    std::vector<std::string> index_urls = {};
    // pip --no-deps: a local project installs its own code, none of its requirements.
    bool no_deps = false;
};

struct Hold {
    std::string package;
    int line = 0;
};

struct StageFacts {
    std::size_t stage = 0;
    BaseFacts base;  // for a stage built FROM another stage: that stage's (resolved) base
    std::optional<std::size_t> parent;  // FROM an earlier stage
    std::vector<Package> packages;      // parents' and COPY --from sources' first, inherited = true
    std::vector<RequirementsFile> requirements;
    std::vector<Hold> holds;
    std::vector<std::string> conda_channels;
};

struct Facts {
    Dockerfile dockerfile;
    Build build;
    std::vector<StageFacts> stages;
    // The drivers the image must run on (--driver, .cuvet.yaml): not a fact
    // of the file, but the one target the lint checks judge against.
    std::vector<std::string> fleet_drivers;

    const StageFacts& final_stage() const { return stages.at(build.final_stage); }
    // The env value at the end of a stage (ENV over ARG), or nullopt.
    std::optional<std::string> env(std::size_t stage, std::string_view name) const;
    // The ENV instruction that set `name` last in `stage`; nullptr if none.
    const Variable* env_variable(std::size_t stage, std::string_view name) const;
};

BaseFacts read_base(const std::string& reference);
Facts extract_facts(Dockerfile dockerfile, Build build);

// "cu121" → "12.1", "cu118" → "11.8", "cu92" → "9.2"; empty when not that shape.
std::string cuda_from_tag(std::string_view tag);

}  // namespace cuvet::dockerfile
