#pragma once
// Running the probes through a container engine (docker, podman) the way
// production starts a GPU container, with the engine's isolation made strict:
// `--network none --read-only --cap-drop ALL --security-opt no-new-privileges`,
// a private /tmp, pids and memory limits, and the GPU through CDI
// (`--device nvidia.com/gpu=all`) where the host has a CDI spec for it, or
// docker's `--gpus all`. Without a GPU (CI) the same flags run on the CPU.
//
// The engine's client is only a window onto the container: killing it (the
// deadline, the output limit) leaves conmon or dockerd running the image, and
// their log file would take all it prints onto the host's disk. So a container
// logs nothing (`--log-driver none`: its output reaches cuvet through the
// attached client only) and is named, and removed by name once its run ends.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "cuvet/sandbox/process.hpp"

namespace cuvet::sandbox {

struct EngineLimits {
    std::uint64_t memory_bytes = 32ULL << 30;  // 0: none
    std::uint32_t max_pids = 4096;             // 0: none
    std::chrono::seconds timeout{0};  // podman's own --timeout as well as cuvet's deadline; 0: none
};

// Where CDI specs live (the CDI spec's default directories).
const std::vector<std::filesystem::path>& cdi_spec_dirs();

// True when a CDI spec in `dirs` declares kind nvidia.com/gpu (nvidia-ctk cdi generate).
bool has_nvidia_cdi_spec(const std::vector<std::filesystem::path>& dirs = cdi_spec_dirs());

// A name for one container of this process: cuvet-probe-<pid>-<n>-<random>.
std::string new_container_name();

// `<engine> run --rm --name NAME …` up to (not including) --entrypoint and the image.
std::vector<std::string> engine_run_args(const std::string& engine, const EngineLimits& limits,
                                         bool gpu, const std::string& container_name);

// Runs `spec` (an engine_run_args command) and then removes `container_name`
// (`<engine> rm -f`), which stops it where the client was killed first.
ProcessResult run_engine_container(const std::string& engine, const std::string& container_name,
                                   const ProcessSpec& spec);

// What the engine runs: `image_ref` when given; for podman an archive on disk
// is run directly (docker-archive:PATH, or oci-archive:PATH when it holds an
// oci-layout); "" when there is nothing the engine can run.
std::string engine_image(const std::string& engine, const std::string& image_ref,
                         const std::filesystem::path& archive);

// auto: podman with a CDI spec for the GPU, else docker with the NVIDIA runtime,
// else builtin. Any other name is returned as it is.
std::string resolve_runtime(const std::string& requested);

}  // namespace cuvet::sandbox
