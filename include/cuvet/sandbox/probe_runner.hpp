#pragma once
// `cuvet probe`: run cuvet-probe inside an image with one of the runtimes and
// turn what it reports into findings.
//
//   builtin  extract the merged rootfs to a temp dir, inject the host driver,
//            unshare + chroot (needs root); the rootfs is removed afterwards,
//            by a helper process when cuvet itself is killed
//
// After the cuDNN probe (cuvet-probe, which also serves C++ images), each
// framework the image has runs its own smoke script with the image's python.
//   docker   `docker run` on an image the daemon already has, GPU by CDI or --gpus all
//   podman   `podman run` on an image it has or the archive itself, GPU by CDI
// both with the flags of engine_run.hpp (no network, read-only, no capabilities, limits).
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cuvet/image/image.hpp"
#include "cuvet/report/finding.hpp"
#include "cuvet/sandbox/extract.hpp"
#include "cuvet/sandbox/framework_smoke.hpp"
#include "cuvet/sandbox/probe_plan.hpp"
#include "cuvet/sandbox/probe_report.hpp"
#include "cuvet/sandbox/process.hpp"

namespace cuvet::sandbox {

struct ProbeRunOptions {
    std::string runtime = "builtin";  // auto, builtin, docker, podman (resolve_runtime)
    std::string container_image;      // docker/podman: the reference the engine knows
    std::filesystem::path
        image_archive;  // podman without container_image: runs this archive directly
    std::filesystem::path probe_binary;  // the cuvet-probe to run
    std::chrono::seconds timeout{120};
    std::vector<std::string> env_overrides;  // KEY=VALUE on top of the image's Env
    std::vector<std::string> extra_args;     // appended to the probe's arguments
    bool self_test = false;                  // the probe's --self-test (no GPU needed)
    std::filesystem::path work_dir;          // parent of the temp dir ("" = $TMPDIR or /tmp)
    bool keep_rootfs = false;                // debugging: leave the extracted tree behind
    // Framework smoke probes after the cuDNN probe: {"auto"} every framework
    // the image has, {} none, or names from smoke_frameworks().
    std::vector<std::string> frameworks{"auto"};
    std::chrono::seconds framework_timeout{180};              // each framework probe
    std::uint64_t memory_limit = 32ULL * 1024 * 1024 * 1024;  // bytes, per run (cgroup v2); 0: none
    std::uint32_t max_processes = 4096;                       // processes + threads of one run
    // builtin: after the driver injection, the host's ldconfig over the image's ld.so.conf as
    // the NVIDIA toolkit runs it; false: the image's ld.so.cache as it is (--runtime-start none).
    // An engine starts the container its own way.
    bool nvidia_start = true;
};

struct ProbeOutcome {
    std::string runtime;
    ProbePlan plan;
    ProcessResult process;
    std::optional<ProbeReport> report;  // nullopt: the probe printed nothing usable
    std::vector<report::Finding> findings;
    ExtractStats extract;
    double extract_seconds = 0;
    std::string library_dir;            // builtin: where driver libraries were injected
    std::vector<std::string> injected;  // builtin: injected driver libraries
    std::string rootfs;                 // builtin: the temp rootfs (removed unless keep_rootfs)
    std::vector<SmokeTarget> framework_targets;  // the frameworks found in the image
    std::vector<SmokeResult> frameworks;         // what their smoke probes did
    std::vector<std::string> notes;              // sandbox limits that could not be applied, …
};

ProbeOutcome run_probe(const image::Image& image, const ProbeRunOptions& options);

// cuvet-probe beside the running executable (installed or build tree), or "".
std::filesystem::path find_probe_binary();

}  // namespace cuvet::sandbox
