#pragma once
// Running the probes through a container engine (docker, podman) the way
// production starts a GPU container, with the engine's isolation made strict:
// `--network none --read-only --cap-drop ALL --security-opt no-new-privileges`,
// a private /tmp, pids and memory limits, and the GPU through CDI
// (`--device nvidia.com/gpu=all`) where the host has a CDI spec for it, or
// docker's `--gpus all`. Without a GPU (CI) the same flags run on the CPU.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

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

// `<engine> run --rm …` up to (not including) --entrypoint and the image.
std::vector<std::string> engine_run_args(const std::string& engine, const EngineLimits& limits,
                                         bool gpu);

// What the engine runs: `image_ref` when given; for podman an archive on disk
// is run directly (docker-archive:PATH, or oci-archive:PATH when it holds an
// oci-layout); "" when there is nothing the engine can run.
std::string engine_image(const std::string& engine, const std::string& image_ref,
                         const std::filesystem::path& archive);

// auto: podman with a CDI spec for the GPU, else docker with the NVIDIA runtime,
// else builtin. Any other name is returned as it is.
std::string resolve_runtime(const std::string& requested);

}  // namespace cuvet::sandbox
