#include "cuvet/sandbox/engine_run.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

#include "cuvet/sandbox/process.hpp"

namespace cuvet::sandbox {
namespace {

namespace fs = std::filesystem;

std::string read_head(const fs::path& path, std::size_t bytes) {
    std::ifstream in(path, std::ios::binary);
    std::string text(bytes, '\0');
    in.read(text.data(), static_cast<std::streamsize>(bytes));
    text.resize(static_cast<std::size_t>(in.gcount()));
    return text;
}

bool on_path(const std::string& program) {
    ProcessSpec spec;
    spec.argv = {"/bin/sh", "-c", "command -v " + program};
    spec.inherit_environment = true;
    spec.timeout = std::chrono::seconds(10);
    return run_process(spec).exit_code == 0;
}

// The member names of an uncompressed tar, read header by header (the contents are skipped).
std::vector<std::string> tar_members(const fs::path& archive) {
    std::vector<std::string> names;
    std::ifstream in(archive, std::ios::binary);
    char header[512];
    while (names.size() < 100000 && in.read(header, sizeof header)) {
        if (header[0] == '\0') break;
        names.emplace_back(header, strnlen(header, 100));
        const std::uint64_t size = std::strtoull(std::string(header + 124, 12).c_str(), nullptr, 8);
        in.seekg(static_cast<std::streamoff>((size + 511) / 512 * 512), std::ios::cur);
    }
    return names;
}

// docker save writes manifest.json (docker 25+ also an oci-layout beside it:
// both readings work, docker-archive keeps the RepoTags); an OCI archive has
// only the oci-layout.
std::string archive_transport(const fs::path& archive) {
    bool oci = false;
    for (std::string name : tar_members(archive)) {
        if (name.rfind("./", 0) == 0) name.erase(0, 2);
        if (name == "manifest.json") return "docker-archive:";
        if (name == "oci-layout") oci = true;
    }
    return oci ? "oci-archive:" : "";
}

}  // namespace

const std::vector<fs::path>& cdi_spec_dirs() {
    static const std::vector<fs::path> dirs = {"/etc/cdi", "/var/run/cdi"};
    return dirs;
}

bool has_nvidia_cdi_spec(const std::vector<fs::path>& dirs) {
    for (const fs::path& dir : dirs) {
        std::error_code error;
        for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
            const std::string ext = it->path().extension().string();
            if (ext != ".yaml" && ext != ".yml" && ext != ".json") continue;
            // "kind: nvidia.com/gpu" (YAML) or "\"kind\": \"nvidia.com/gpu\"" (JSON).
            if (read_head(it->path(), 1 << 20).find("nvidia.com/gpu") != std::string::npos)
                return true;
        }
    }
    return false;
}

std::string new_container_name() {
    static std::atomic<unsigned> counter{0};
    std::random_device random;
    char suffix[16];
    std::snprintf(suffix, sizeof suffix, "%08x", random());
    return "cuvet-probe-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + "-" +
           suffix;
}

std::vector<std::string> engine_run_args(const std::string& engine, const EngineLimits& limits,
                                         bool gpu, const std::string& container_name) {
    std::vector<std::string> args = {
        engine,         "run",          "--rm",           "--name",
        container_name, "--log-driver", "none",           "--network",
        "none",         "--read-only",  "--tmpfs",        "/tmp:rw,nosuid,nodev,size=2g",
        "--cap-drop",   "ALL",          "--security-opt", "no-new-privileges"};
    if (limits.max_pids != 0)
        args.insert(args.end(), {"--pids-limit", std::to_string(limits.max_pids)});
    if (limits.memory_bytes != 0)
        args.insert(args.end(), {"--memory", std::to_string(limits.memory_bytes)});
    // podman ends the container itself; docker's client being killed leaves it to --rm and the kill
    // below.
    if (engine == "podman" && limits.timeout.count() > 0)
        args.insert(args.end(), {"--timeout", std::to_string(limits.timeout.count())});
    if (gpu) {
        if (has_nvidia_cdi_spec()) {
            args.insert(args.end(), {"--device", "nvidia.com/gpu=all"});
        } else if (engine == "docker") {
            args.insert(args.end(), {"--gpus", "all"});
        }
    }
    return args;
}

ProcessResult run_engine_container(const std::string& engine, const std::string& container_name,
                                   const ProcessSpec& spec) {
    ProcessResult result = run_process(spec);
    // After a normal end --rm has removed it and this finds nothing; after a kill it stops the
    // container and frees its storage before cuvet goes on (or deletes its temporary tree).
    ProcessSpec remove;
    remove.argv = {engine, "rm", "-f", container_name};
    remove.search_path = true;
    remove.inherit_environment = true;
    remove.timeout = std::chrono::seconds(60);
    remove.max_output = 64 << 10;
    run_process(remove);
    return result;
}

std::string engine_image(const std::string& engine, const std::string& image_ref,
                         const fs::path& archive) {
    if (!image_ref.empty()) return image_ref;
    std::error_code error;
    if (engine != "podman" || archive.empty() || !fs::is_regular_file(archive, error)) return {};
    const std::string transport = archive_transport(archive);
    return transport.empty() ? std::string() : transport + fs::absolute(archive).string();
}

std::string resolve_runtime(const std::string& requested) {
    if (requested != "auto") return requested;
    if (has_nvidia_cdi_spec() && on_path("podman")) return "podman";
    if (on_path("docker")) {
        ProcessSpec spec;
        spec.argv = {"docker", "info", "--format", "{{json .Runtimes}}"};
        spec.search_path = true;
        spec.inherit_environment = true;
        spec.timeout = std::chrono::seconds(20);
        const ProcessResult info = run_process(spec);
        if (info.exit_code == 0 &&
            (info.out.find("nvidia") != std::string::npos || has_nvidia_cdi_spec()))
            return "docker";
    }
    return "builtin";
}

}  // namespace cuvet::sandbox
