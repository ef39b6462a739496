#pragma once
// The built-in runner: a program runs inside an extracted root file system,
// in a private mount namespace, chrooted, with the host's GPU device nodes and
// driver libraries injected the way nvidia-container-toolkit does it. Needs
// root (CAP_SYS_ADMIN, CAP_SYS_CHROOT). Not a security boundary: the image's
// libraries run as root on the host; it is a faithful runtime, not a jail.
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
    HostDriver driver;        // what to inject (find_host_driver())
    bool run_ldconfig = true; // refresh the image's ld.so cache after injecting, as the toolkit does
};

struct ChrootRun {
    ProcessResult process;
    std::string library_dir;              // where the driver libraries went, inside the image
    std::vector<std::string> injected;    // image paths of injected libraries
    std::vector<std::string> notes;       // what was set up or left out, for --verbose and reports
};

// Copies `program` into `rootfs` as /.cuvet-probe, prepares the mount points,
// injects the driver, then runs /.cuvet-probe with `args` inside the chroot.
ChrootRun run_in_chroot(const std::filesystem::path& rootfs, const std::filesystem::path& program,
                        const std::vector<std::string>& args, const ChrootOptions& options);

// The image's library directory for injected driver files: the multiarch dir
// on Debian-likes, lib64 on RHEL-likes (resolved inside the image, not the host).
std::string pick_library_dir(const std::filesystem::path& rootfs);

inline constexpr const char* probe_path_in_image = "/.cuvet-probe";

}  // namespace cuvet::sandbox
