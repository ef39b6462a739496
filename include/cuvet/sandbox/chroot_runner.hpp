#pragma once
// The built-in runner: a program runs inside an extracted root file system
// with the host's GPU device nodes and driver libraries injected the way
// nvidia-container-toolkit does it, contained like a rootless container
// (docs/probe.md, "The sandbox"): its own user namespace (image root is an
// unprivileged host id), PID, mount, network, IPC, UTS and cgroup namespaces,
// pivot_root into the image (read-only, nosuid, nodev), a minimal /dev, no
// capabilities, no_new_privs, a seccomp filter, process/memory/CPU limits and
// a bounded output. Needs host root to set this up.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "cuvet/sandbox/host_driver.hpp"
#include "cuvet/sandbox/process.hpp"

namespace cuvet::sandbox {

struct ChrootOptions {
    std::vector<std::string> environment;  // the program's environment (the image's Env)
    std::chrono::milliseconds timeout{std::chrono::seconds(120)};
    bool inject_driver = true;
    HostDriver driver;         // what to inject (find_host_driver())
    bool run_ldconfig = true;  // with inject_driver: the host's ldconfig over the image's
                               // ld.so.conf, as the toolkit does
    bool private_tmp = true;   // a fresh tmpfs on /tmp
    bool no_network = true;    // a new network namespace: no interface but a downed loopback
    bool read_only_root =
        true;            // the image's tree is mounted read-only (after the ld.so cache refresh)
    std::string cgroup;  // a cgroup v2 directory to run in (CgroupLimits), "" for none
    std::uint32_t max_processes = 4096;  // processes + threads (RLIMIT_NPROC in its user namespace)
    std::size_t max_output = default_max_output;  // bytes kept of stdout and of stderr each
};

struct ChrootRun {
    ProcessResult process;
    std::string library_dir;            // where the driver libraries went, inside the image
    std::vector<std::string> injected;  // image paths of injected libraries
    std::vector<std::string> notes;     // what was set up or left out, for --verbose and reports
    std::string ld_cache_problem;  // why the image's ld.so cache was not refreshed, "" when it was
};

// Copies `program` into `rootfs` as /.cuvet-probe, prepares the mount points,
// injects the driver, then runs /.cuvet-probe with `args` inside the chroot.
ChrootRun run_in_chroot(const std::filesystem::path& rootfs, const std::filesystem::path& program,
                        const std::vector<std::string>& args, const ChrootOptions& options);

// Runs a program the image already has (`argv[0]`, an image path such as its
// python) inside `rootfs`, set up as run_in_chroot does.
ChrootRun run_image_program(const std::filesystem::path& rootfs,
                            const std::vector<std::string>& argv, const ChrootOptions& options);

// The image's library directory for injected driver files: the multiarch dir
// on Debian-likes, lib64 on RHEL-likes (resolved inside the image, not the host).
std::string pick_library_dir(const std::filesystem::path& rootfs);

inline constexpr const char* probe_path_in_image = "/.cuvet-probe";

}  // namespace cuvet::sandbox
