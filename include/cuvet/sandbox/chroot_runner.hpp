#pragma once
// The built-in runner: a program runs inside an extracted root file system,
// in a private mount namespace, chrooted, with the host's GPU device nodes and
// driver libraries injected the way nvidia-container-toolkit does it. Needs
// root (CAP_SYS_ADMIN, CAP_SYS_CHROOT). Not a security boundary: the image's
// libraries run as root on the host; it is a faithful runtime, not a jail.
// What it isolates (docs/sandbox.md): mounts (a private namespace, the image
// tree read-only, a private /tmp), the network (a new, empty namespace),
// time (a deadline, then the whole process group is killed), memory (a cgroup
// v2 limit where the host lets us create one) and lifetime (the program dies
// with cuvet). What it does not: users (root stays root), PIDs, IPC, devices
// beyond the GPU nodes, /sys (bound read-only).
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
    HostDriver driver;  // what to inject (find_host_driver())
    bool run_ldconfig =
        true;  // refresh the image's ld.so cache after injecting, as the toolkit does
    bool private_tmp = true;     // a fresh tmpfs on /tmp
    bool no_network = true;      // a new network namespace: no interface but a downed loopback
    bool read_only_root = true;  // the image's tree is remounted read-only once ldconfig has run
    std::string memory_cgroup;   // a cgroup v2 directory to run in (MemoryLimit), "" for none
};

struct ChrootRun {
    ProcessResult process;
    std::string library_dir;            // where the driver libraries went, inside the image
    std::vector<std::string> injected;  // image paths of injected libraries
    std::vector<std::string> notes;     // what was set up or left out, for --verbose and reports
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
