#include "cuvet/sandbox/chroot_runner.hpp"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

#include "cuvet/core/errno_text.hpp"
#include "cuvet/core/error.hpp"
#include "cuvet/core/unique_fd.hpp"
#include "cuvet/sandbox/device_nodes.hpp"
#include "cuvet/sandbox/extract.hpp"
#include "cuvet/sandbox/ld_cache_refresh.hpp"
#include "cuvet/sandbox/namespaces.hpp"
#include "cuvet/sandbox/seccomp_filter.hpp"

namespace cuvet::sandbox {
namespace {

namespace fs = std::filesystem;

// Opens `path` inside the image as if `root_fd` were "/": absolute symlinks
// and ".." never leave it (openat2 RESOLVE_IN_ROOT, Linux 5.6+). On older
// kernels no symlink is followed at all.
int open_in_root(int root_fd, const std::string& path, int flags) {
    open_how how{};
    how.flags = static_cast<std::uint64_t>(flags | O_CLOEXEC);
    how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS;
    const std::string relative =
        path.substr(path.find_first_not_of('/') == std::string::npos ? path.size()
                                                                     : path.find_first_not_of('/'));
    const int fd = static_cast<int>(::syscall(
        SYS_openat2, root_fd, relative.empty() ? "." : relative.c_str(), &how, sizeof how));
    if (fd >= 0 || errno != ENOSYS) return fd;
    return (flags & O_DIRECTORY) != 0 ? open_dir_nofollow(root_fd, relative, false) : -1;
}

void copy_into(int dir_fd, const std::string& name, const fs::path& source, mode_t mode) {
    UniqueFd in(::open(source.c_str(), O_RDONLY | O_CLOEXEC));
    if (in.get() < 0) fail_io(source.string() + ": " + errno_text());
    ::unlinkat(dir_fd, name.c_str(),
               0);  // a stub or symlink the image ships is replaced, as the toolkit's mount does
    UniqueFd out(
        ::openat(dir_fd, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode));
    if (out.get() < 0) fail_io("cannot place " + name + " in the image: " + errno_text());
    char buffer[1 << 16];
    for (;;) {
        const ssize_t n = ::read(in.get(), buffer, sizeof buffer);
        if (n < 0) fail_io(source.string() + ": " + errno_text());
        if (n == 0) break;
        for (ssize_t done = 0; done < n;) {
            const ssize_t w = ::write(out.get(), buffer + done, static_cast<std::size_t>(n - done));
            if (w <= 0) fail_io("writing " + name + ": " + errno_text());
            done += w;
        }
    }
    ::fchmod(out.get(), mode);
}

// /dev, /proc and /sys become mount points: whatever the image has there
// (a symlink, a file) is replaced by an empty directory of our own.
void make_mount_point(int root_fd, const char* name) {
    struct stat info {};
    if (::fstatat(root_fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0) {
        if (S_ISDIR(info.st_mode)) return;
        if (::unlinkat(root_fd, name, 0) != 0)
            fail_io(std::string("cannot replace /") + name + ": " + errno_text());
    }
    if (::mkdirat(root_fd, name, 0755) != 0)
        fail_io(std::string("cannot create /") + name + ": " + errno_text());
}

// ---- the child side: runs between fork and exec ----

struct ChildSetup {
    fs::path root;
    std::vector<fs::path> device_nodes;
    bool private_tmp = true;
    bool no_network = true;
    bool read_only_root = true;
    std::uint32_t max_processes = 4096;
    std::string cgroup_procs;  // "<cgroup>/cgroup.procs", "" for none
};

// A note on the program's own stderr: the parent keeps the child's stderr.
void note(const std::string& text) {
    const std::string line = "cuvet sandbox: " + text + "\n";
    [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, line.data(), line.size());
}

// As host root, still outside the image: limits, then every namespace but the
// user one, so that the mounts below belong to the host's user namespace and
// the image, whose root is a stranger there, can never change them.
std::string enter_namespaces(const ChildSetup& setup) {
    // The program dies with cuvet, however cuvet ends; and leaves no core files in the image.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    const rlimit no_core{0, 0};
    ::setrlimit(RLIMIT_CORE, &no_core);
    // Counted per user namespace: this caps the sandbox's processes and threads (a fork bomb).
    const rlimit processes{setup.max_processes, setup.max_processes};
    ::setrlimit(RLIMIT_NPROC, &processes);
    if (!setup.cgroup_procs.empty()) {
        const int fd = ::open(setup.cgroup_procs.c_str(), O_WRONLY | O_CLOEXEC);
        if (fd < 0 || ::write(fd, "0", 1) != 1)
            note("not limited by cgroup: " + setup.cgroup_procs + ": " + errno_text());
        if (fd >= 0) ::close(fd);
    }
    const int namespaces = CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS |
                           CLONE_NEWCGROUP | (setup.no_network ? CLONE_NEWNET : 0);
    if (::unshare(namespaces) != 0)
        return "unshare: " + errno_text() + " (the built-in runner needs root)";
    return become_pid_one();
}

std::string mount_sys(const fs::path& sys) {
    // A sysfs of the new network namespace, read-only: the driver reads the PCI topology there.
    if (::mount("sysfs", sys.c_str(), "sysfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
                nullptr) == 0)
        return {};
    const std::string why = errno_text();
    if (::mount("/sys", sys.c_str(), nullptr, MS_BIND | MS_REC, nullptr) != 0)
        return "mount /sys: " + why;
    ::mount(nullptr, sys.c_str(), nullptr,
            MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr);
    note("/sys is the host's, bound (a fresh sysfs could not be mounted: " + why + ")");
    return {};
}

std::string build_tree(const ChildSetup& setup) {
    const fs::path& root = setup.root;
    // Nothing mounted from here on may leak back into the host's namespace.
    if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
        return "make mounts private: " + errno_text();
    // The image's tree becomes a mount of its own: pivot_root's new root, later made read-only.
    if (::mount(root.c_str(), root.c_str(), nullptr, MS_BIND | MS_REC, nullptr) != 0)
        return "bind the image's root onto itself: " + errno_text();
    std::string error = populate_dev(root / "dev", setup.device_nodes);
    if (!error.empty()) return error;
    // A procfs of the new PID namespace: the host's processes are not in it.
    if (::mount("proc", (root / "proc").c_str(), "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC,
                nullptr) != 0)
        return "mount /proc: " + errno_text();
    error = mount_sys(root / "sys");
    if (!error.empty()) return error;
    if (setup.private_tmp && ::mount("tmpfs", (root / "tmp").c_str(), "tmpfs", MS_NOSUID | MS_NODEV,
                                     "mode=1777,size=2g") != 0)
        return "mount tmpfs on /tmp: " + errno_text();
    ::sethostname("cuvet-sandbox", 13);
    error = pivot_into(root);
    if (!error.empty()) return error;
    const unsigned long root_flags =
        MS_BIND | MS_REMOUNT | MS_NOSUID | MS_NODEV | (setup.read_only_root ? MS_RDONLY : 0);
    if (::mount(nullptr, "/", nullptr, root_flags, nullptr) != 0)
        return "remount / read-only: " + errno_text();
    return {};
}

std::string enter_sandbox(const ChildSetup& setup) {
    std::string error = enter_namespaces(setup);
    if (error.empty()) error = build_tree(setup);
    if (error.empty()) error = enter_user_namespace();
    // The kernel clears the parent-death signal when the effective uid changes: set it again.
    if (error.empty()) ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (error.empty()) error = drop_privileges();
    if (error.empty()) error = install_seccomp_filter();
    return error;
}

}  // namespace

std::string pick_library_dir(const fs::path& rootfs) {
    UniqueFd root(::open(rootfs.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (root.get() < 0) fail_io(rootfs.string() + ": " + errno_text());
    for (const char* dir : {"/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu", "/usr/lib64",
                            "/lib64", "/usr/lib"}) {
        UniqueFd fd(open_in_root(root.get(), dir, O_RDONLY | O_DIRECTORY));
        if (fd.get() >= 0) return dir;
    }
    return "/usr/lib";
}

namespace {

// The directory `dir` of the image, resolved inside it, created (without following links) when
// missing.
int open_image_dir(int root_fd, const std::string& dir) {
    const int fd = open_in_root(root_fd, dir, O_RDONLY | O_DIRECTORY);
    return fd >= 0 ? fd : open_dir_nofollow(root_fd, dir, true);
}

// A CDI spec's mounts are copied to their container paths (a copy is the same
// to the loader as the toolkit's bind mount), and its hook's links made.
void inject_cdi_files(int root_fd, const HostDriver& driver, ChrootRun& run) {
    for (const InjectedFile& file : driver.files) {
        struct stat info {};
        const fs::path target(file.image_path);
        if (::stat(file.host.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) {
            run.notes.push_back("CDI mount " + file.host.string() +
                                " not injected: not a regular file");
            continue;
        }
        UniqueFd dir(open_image_dir(root_fd, target.parent_path().string()));
        if (dir.get() < 0) {
            run.notes.push_back("CDI mount " + file.image_path + " not injected: " + errno_text());
            continue;
        }
        copy_into(dir.get(), target.filename().string(), file.host, info.st_mode & 0755);
        run.injected.push_back(file.image_path);
    }
    for (const InjectedLink& link : driver.links) {
        const fs::path path(link.image_path);
        UniqueFd dir(open_image_dir(root_fd, path.parent_path().string()));
        if (dir.get() < 0) continue;
        ::unlinkat(dir.get(), path.filename().c_str(), 0);
        if (::symlinkat(link.target.c_str(), dir.get(), path.filename().c_str()) == 0)
            run.injected.push_back(link.image_path + " -> " + link.target);
    }
}

// Puts the driver libraries into the image's library directory (the toolkit
// mounts them; a copy is the same to the loader).
void inject_driver(int root_fd, const fs::path& rootfs, const ChrootOptions& options,
                   ChrootRun& run) {
    run.library_dir = pick_library_dir(rootfs);
    int dir = open_in_root(root_fd, run.library_dir, O_RDONLY | O_DIRECTORY);
    if (dir < 0) dir = open_dir_nofollow(root_fd, run.library_dir, true);
    UniqueFd lib_dir(dir);
    if (lib_dir.get() < 0)
        fail_io("cannot open " + run.library_dir + " in the image: " + errno_text());
    for (const DriverLibrary& lib : options.driver.libraries) {
        copy_into(lib_dir.get(), lib.soname, lib.path, 0755);
        run.injected.push_back(run.library_dir + "/" + lib.soname);
    }
    inject_cdi_files(root_fd, options.driver, run);
    for (const fs::path& node : options.driver.device_nodes)
        run.notes.push_back("device " + node.string());
}

ChrootRun run_prepared(const fs::path& rootfs, int root_fd, const std::vector<std::string>& argv,
                       const ChrootOptions& options) {
    ChrootRun run;
    std::vector<const char*> mount_points = {"dev", "proc", "sys"};
    if (options.private_tmp) mount_points.push_back("tmp");
    for (const char* name : mount_points) make_mount_point(root_fd, name);
    if (options.inject_driver) inject_driver(root_fd, rootfs, options, run);

    // The image's ids become the sandbox's unprivileged host ids, then the toolkit's ldconfig step.
    shift_ownership(rootfs);
    if (options.run_ldconfig && options.inject_driver) {
        run.ld_cache_problem = refresh_ld_cache(rootfs, options.driver.ldcache_folders);
    }

    ProcessSpec spec;
    spec.argv = argv;
    spec.environment = options.environment;
    spec.timeout = options.timeout;
    spec.max_output = options.max_output;
    ChildSetup setup;
    setup.root = fs::absolute(rootfs);
    setup.device_nodes = options.driver.device_nodes;
    setup.private_tmp = options.private_tmp;
    setup.no_network = options.no_network;
    setup.read_only_root = options.read_only_root;
    setup.max_processes = options.max_processes;
    if (!options.cgroup.empty()) setup.cgroup_procs = options.cgroup + "/cgroup.procs";
    spec.child_setup = [setup] { return enter_sandbox(setup); };
    run.process = run_process(spec);
    return run;
}

}  // namespace

ChrootRun run_in_chroot(const fs::path& rootfs, const fs::path& program,
                        const std::vector<std::string>& args, const ChrootOptions& options) {
    UniqueFd root(::open(rootfs.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (root.get() < 0) fail_io(rootfs.string() + ": " + errno_text());
    copy_into(root.get(), std::string(probe_path_in_image).substr(1), program, 0755);
    std::vector<std::string> argv = {probe_path_in_image};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_prepared(rootfs, root.get(), argv, options);
}

ChrootRun run_image_program(const fs::path& rootfs, const std::vector<std::string>& argv,
                            const ChrootOptions& options) {
    UniqueFd root(::open(rootfs.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (root.get() < 0) fail_io(rootfs.string() + ": " + errno_text());
    return run_prepared(rootfs, root.get(), argv, options);
}

}  // namespace cuvet::sandbox
