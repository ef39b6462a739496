// The engine path of the live check (--probe-runtime docker|podman): the
// flags that make the container strict, what the engine is told to run, and
// the hostile program through Debian's podman on the CPU (no GPU: the
// plumbing, the isolation flags and the result parsing are what is tested).
#include "cuvet/sandbox/engine_run.hpp"

#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <sstream>

#include "cuvet/sandbox/framework_findings.hpp"
#include "cuvet/sandbox/framework_runner.hpp"
#include "support/image_writer.hpp"
#include "support/process.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"
#include "support/text_lines.hpp"

using namespace cuvet;
using namespace cuvet::test;
namespace fs = std::filesystem;

namespace {

bool has_pair(const std::vector<std::string>& args, const std::string& flag,
              const std::string& value) {
    for (std::size_t i = 0; i + 1 < args.size(); ++i) {
        if (args[i] == flag && args[i + 1] == value) return true;
    }
    return false;
}

// podman with its own vfs storage in `dir`, runc (crun refuses this host's hybrid cgroups) and no
// default ulimits (a container may not raise them here): a wrapper first on PATH, as cuvet runs
// "podman".
void podman_wrapper(const fs::path& dir) {
    fs::create_directories(dir / "bin");
    write_file(dir / "containers.conf", "[containers]\ndefault_ulimits = []\n");
    write_file(dir / "bin/podman",
               "#!/bin/sh\nCONTAINERS_CONF=" + (dir / "containers.conf").string() +
                   " exec /usr/bin/podman --root " + (dir / "root").string() + " --runroot " +
                   (dir / "run").string() + " --storage-driver vfs --runtime runc \"$@\"\n");
    fs::permissions(dir / "bin/podman", fs::perms::owner_all);
}

// Whatever a failed check left running is removed before the temporary tree is: a container
// still writing under it would keep its mounts busy and the tree on the disk.
struct PodmanCleanup {
    fs::path dir;
    ~PodmanCleanup() {
        run_shell(shell_quote((dir / "bin/podman").string()) + " rm -af >/dev/null 2>&1");
        run_shell("grep -o ' " + dir.string() +
                  "[^ ]*' /proc/self/mounts | xargs -r -n1 umount -l 2>/dev/null");
    }
};

}  // namespace

TEST_CASE("container names are unique within a run", "[sandbox][engine]") {
    const std::string first = sandbox::new_container_name();
    const std::string second = sandbox::new_container_name();
    CHECK(first != second);
    CHECK_THAT(first, Catch::Matches("cuvet-probe-[0-9]+-[0-9]+-[0-9a-f]{8}"));
}

TEST_CASE("engine runs are strict: no network, read-only, no capabilities, limits",
          "[integration][sandbox][engine]") {
    sandbox::EngineLimits limits;
    limits.max_pids = 128;
    limits.memory_bytes = 1ULL << 30;
    limits.timeout = std::chrono::seconds(90);
    const auto podman = sandbox::engine_run_args("podman", limits, false, "cuvet-probe-1");
    CHECK(podman[0] == "podman");
    CHECK(podman[1] == "run");
    CHECK(std::find(podman.begin(), podman.end(), "--rm") != podman.end());
    CHECK(has_pair(podman, "--name", "cuvet-probe-1"));
    CHECK(has_pair(podman, "--log-driver", "none"));  // a flood never reaches the host's disk
    CHECK(std::find(podman.begin(), podman.end(), "--read-only") != podman.end());
    CHECK(has_pair(podman, "--network", "none"));
    CHECK(has_pair(podman, "--cap-drop", "ALL"));
    CHECK(has_pair(podman, "--security-opt", "no-new-privileges"));
    CHECK(has_pair(podman, "--pids-limit", "128"));
    CHECK(has_pair(podman, "--memory", std::to_string(1ULL << 30)));
    CHECK(has_pair(podman, "--timeout", "90"));
    CHECK(has_pair(podman, "--tmpfs", "/tmp:rw,nosuid,nodev,size=2g"));
    const auto docker = sandbox::engine_run_args("docker", limits, false, "cuvet-probe-2");
    CHECK_FALSE(std::find(docker.begin(), docker.end(), "--timeout") !=
                docker.end());  // docker has none

    // An archive runs directly under podman, by the kind of archive it is; docker needs a loaded
    // image.
    TempDir tmp;
    ImageSpec spec;
    spec.layers = {Layer{{file("bin/true", "x", 0755)}}};
    docker_archive({spec}, DockerLayout::legacy).write_tar(tmp / "docker.tar");
    docker_archive({spec}, DockerLayout::blobs).write_tar(tmp / "docker25.tar");
    oci_layout({oci_image(spec)}).write_tar(tmp / "oci.tar");
    CHECK(sandbox::engine_image("podman", "", tmp / "docker.tar") ==
          "docker-archive:" + (tmp / "docker.tar").string());
    CHECK(sandbox::engine_image("podman", "", tmp / "docker25.tar") ==
          "docker-archive:" + (tmp / "docker25.tar").string());
    CHECK(sandbox::engine_image("podman", "", tmp / "oci.tar") ==
          "oci-archive:" + (tmp / "oci.tar").string());
    CHECK(sandbox::engine_image("docker", "", tmp / "docker.tar").empty());
    CHECK(sandbox::engine_image("podman", "localhost/x:1", tmp / "docker.tar") == "localhost/x:1");

    // A CDI spec for the GPU is what nvidia-ctk writes; another vendor's is not.
    fs::create_directories(tmp / "cdi");
    write_file(tmp / "cdi/fpga.yaml", "cdiVersion: 0.5.0\nkind: vendor.com/fpga\n");
    CHECK_FALSE(sandbox::has_nvidia_cdi_spec({tmp / "cdi"}));
    write_file(tmp / "cdi/nvidia.yaml", "cdiVersion: 0.5.0\nkind: nvidia.com/gpu\ndevices: []\n");
    CHECK(sandbox::has_nvidia_cdi_spec({tmp / "none", tmp / "cdi"}));
    CHECK(sandbox::resolve_runtime("podman") == "podman");
}

TEST_CASE("a hostile image through podman: the engine's isolation holds and the flood is cut",
          "[integration][sandbox][engine][podman]") {
    if (::geteuid() != 0 || !have_program("podman") || !have_program("runc")) {
        CUVET_SKIP("needs root, podman and runc");
    }
    TempDir tmp;
    const ProcessResult built = run_shell(
        "gcc -O1 -static -o " + shell_quote((tmp / "hostile").string()) + " " +
        shell_quote(std::string(CUVET_SOURCE_DIR) + "/tests/sandbox/hostile/hostile_probe.c"));
    if (built.exit_code != 0) {
        CUVET_SKIP("gcc cannot link a static program here");
    }
    ImageSpec spec;
    spec.layers = {Layer{{dir("bin/"), dir("etc/"), dir("tmp/", 01777),
                          file("bin/python", read_file(tmp / "hostile"), 0755)}}};
    spec.env = {"PATH=/bin"};
    docker_archive({spec}).write_tar(tmp / "hostile.tar");
    podman_wrapper(tmp / "podman");
    const PodmanCleanup cleanup{tmp / "podman"};
    const std::string path = std::getenv("PATH") != nullptr ? std::getenv("PATH") : "/usr/bin:/bin";
    ::setenv("PATH", ((tmp / "podman/bin").string() + ":" + path).c_str(), 1);
    ::setenv("CUVET_HOSTILE_SECRET", "in cuvet's environment only", 1);
    sandbox::EngineLimits limits;
    limits.max_pids = 64;
    limits.memory_bytes = 1ULL << 30;
    limits.timeout = std::chrono::seconds(120);
    const std::string image = sandbox::engine_image("podman", "", tmp / "hostile.tar");
    const auto results = sandbox::run_framework_probes_in_container(
        "podman", image, {{"torch", "/usr/lib/python3/dist-packages/torch", "/bin/python"}},
        {"CUVET_HOSTILE_FORKS=500", "CUVET_HOSTILE_PORT=22"}, limits, false);
    ::setenv("PATH", path.c_str(), 1);
    ::unsetenv("CUVET_HOSTILE_SECRET");
    REQUIRE(results.size() == 1);
    const sandbox::SmokeResult& result = results.front();
    const std::string& out = result.process.out;
    INFO(out.substr(0, out.find("hostile done")) << result.process.err.substr(0, 2000));
    REQUIRE_THAT(out, Catch::Contains("hostile done"));
    // podman's default seccomp profile lets an unprivileged user namespace be made (unshare): not
    // an escape by itself.
    for (const std::string attempt :
         {"environ", "loopback", "default_route", "setns", "remount_root", "cgroupfs",
          "block_device", "chroot_escape", "kernel_calls", "fork_bomb"}) {
        INFO(attempt);
        CHECK_THAT(line_of(out, attempt + " "), Catch::StartsWith(attempt + " blocked"));
    }
    CHECK_THAT(line_of(out, "status CapEff:"), Catch::EndsWith("0000000000000000"));
    CHECK_THAT(line_of(out, "status NoNewPrivs:"), Catch::EndsWith("1"));
    CHECK_THAT(line_of(out, "status Seccomp:"), Catch::EndsWith("2"));
    CHECK(result.process.output_truncated);
    CHECK_FALSE(result.parsed);
    CHECK(sandbox::live_verdict(result) == "fails");
    // The container is gone when cuvet goes on, and the 2 GB it printed is nowhere on the disk:
    // killing the client alone left conmon writing it to the container's log.
    const ProcessResult left =
        run_shell(shell_quote((tmp / "podman/bin/podman").string()) + " ps -aq 2>&1");
    CHECK(left.exit_code == 0);
    CHECK(left.out.empty());
    const ProcessResult size = run_shell("du -sm " + shell_quote((tmp / "podman").string()));
    INFO(size.out);
    CHECK(std::stoul(size.out) < 64);
}
