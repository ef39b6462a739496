#pragma once
// Running the framework smoke probes inside an image: the builtin runtime in
// the extracted tree (the same sandbox as the cuDNN probe), or a container
// of docker/podman with the image's own python as entrypoint.
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "cuvet/sandbox/chroot_runner.hpp"
#include "cuvet/sandbox/engine_run.hpp"
#include "cuvet/sandbox/framework_smoke.hpp"

namespace cuvet::sandbox {

// One run per target, in order, each with `sandbox.timeout`; the environment
// is sandbox.environment plus what keeps Python quiet and the caches in /tmp.
std::vector<SmokeResult> run_framework_probes_in_chroot(const std::filesystem::path& rootfs,
                                                        const std::vector<SmokeTarget>& targets,
                                                        const ChrootOptions& sandbox);

// `runtime` docker or podman; `container_image` what the engine runs
// (engine_image); each probe with the flags of engine_run_args.
std::vector<SmokeResult> run_framework_probes_in_container(
    const std::string& runtime, const std::string& container_image,
    const std::vector<SmokeTarget>& targets, const std::vector<std::string>& env_overrides,
    const EngineLimits& limits, bool gpu);

// The environment a smoke script runs with: `env` plus PYTHONDONTWRITEBYTECODE
// and PYTHONUNBUFFERED where the image does not set them.
std::vector<std::string> smoke_environment(std::vector<std::string> env);

}  // namespace cuvet::sandbox
