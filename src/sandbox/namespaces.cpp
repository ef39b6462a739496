#include "cuvet/sandbox/namespaces.hpp"

#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <linux/securebits.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

#include "cuvet/core/errno_text.hpp"

namespace cuvet::sandbox {
namespace {

namespace fs = std::filesystem;

std::uint32_t shifted(std::uint32_t id) {
    if (id >= sandbox_id_base && id - sandbox_id_base < sandbox_id_count) return id;
    return sandbox_id_base + (id < sandbox_id_count ? id : 65534u);
}

bool shift_one(const fs::path& path) {
    struct stat info {};
    if (::lstat(path.c_str(), &info) != 0) return false;
    const std::uint32_t uid = shifted(info.st_uid), gid = shifted(info.st_gid);
    if (uid == info.st_uid && gid == info.st_gid) return false;
    return ::lchown(path.c_str(), uid, gid) == 0;
}

bool write_map(int proc_dir, const char* name) {
    const int fd = ::openat(proc_dir, name, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return false;
    const std::string line =
        "0 " + std::to_string(sandbox_id_base) + " " + std::to_string(sandbox_id_count) + "\n";
    const bool ok = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size());
    ::close(fd);
    return ok;
}

}  // namespace

std::size_t shift_ownership(const fs::path& rootfs) {
    struct stat info {};
    if (::lstat(rootfs.c_str(), &info) == 0 && info.st_uid == shifted(info.st_uid)) return 0;
    std::size_t changed = shift_one(rootfs) ? 1 : 0;
    std::error_code error;
    for (fs::recursive_directory_iterator
             it(rootfs, fs::directory_options::skip_permission_denied, error),
         end;
         !error && it != end; it.increment(error)) {
        if (shift_one(it->path())) ++changed;
    }
    return changed;
}

std::string enter_user_namespace() {
    // Only a process outside the new namespace, holding CAP_SETUID there, may
    // map more than its own id: a helper forked beforehand writes the maps.
    const int self = ::open("/proc/self", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (self < 0) return "open /proc/self: " + errno_text();
    int go[2];
    if (::pipe2(go, O_CLOEXEC) != 0) return "pipe: " + errno_text();
    const pid_t helper = ::fork();
    if (helper < 0) return "fork: " + errno_text();
    if (helper == 0) {
        ::close(go[1]);
        char byte = 0;
        if (::read(go[0], &byte, 1) != 1) ::_exit(1);
        ::_exit(write_map(self, "uid_map") && write_map(self, "gid_map") ? 0 : 2);
    }
    ::close(go[0]);
    std::string error;
    if (::setgroups(0, nullptr) != 0) error = "setgroups: " + errno_text();
    if (error.empty() && ::unshare(CLONE_NEWUSER) != 0)
        error = "unshare(CLONE_NEWUSER): " + errno_text();
    if (error.empty() && ::write(go[1], "g", 1) != 1)
        error = "wake the id-map helper: " + errno_text();
    ::close(go[1]);
    int status = 0;
    while (::waitpid(helper, &status, 0) < 0 && errno == EINTR) {
    }
    ::close(self);
    if (!error.empty()) return error;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return "cannot write the user namespace's uid_map/gid_map";
    if (::setresgid(0, 0, 0) != 0 || ::setresuid(0, 0, 0) != 0)
        return "become root of the user namespace: " + errno_text();
    return {};
}

std::string drop_privileges() {
    const unsigned long bits = SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_SETUID_FIXUP |
                               SECBIT_NO_SETUID_FIXUP_LOCKED | SECBIT_KEEP_CAPS_LOCKED |
                               SECBIT_NO_CAP_AMBIENT_RAISE | SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED;
    if (::prctl(PR_SET_SECUREBITS, bits, 0, 0, 0) != 0) return "securebits: " + errno_text();
    for (unsigned long cap = 0; cap < 64; ++cap) {
        if (::prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0) {
            if (errno == EINVAL) break;  // past the kernel's last capability
            return "drop capability " + std::to_string(cap) + ": " + errno_text();
        }
    }
    if (::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL)
        return "clear ambient capabilities: " + errno_text();
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct data[2] = {};
    if (::syscall(SYS_capset, &header, data) != 0) return "capset: " + errno_text();
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return "no_new_privs: " + errno_text();
    return {};
}

std::string become_pid_one() {
    const pid_t pid = ::fork();
    if (pid < 0) return "fork into the PID namespace: " + errno_text();
    if (pid == 0) {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        return {};
    }
    // Outside stays only a waiter: it holds no pipe end, so cuvet sees EOF as
    // soon as the namespace is gone.
    const int null_fd = ::open("/dev/null", O_RDWR | O_CLOEXEC);
    ::dup2(null_fd, STDOUT_FILENO);
    ::dup2(null_fd, STDERR_FILENO);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status)) ::_exit(WEXITSTATUS(status));
    const int sig = WIFSIGNALED(status) ? WTERMSIG(status) : SIGKILL;
    ::signal(sig, SIG_DFL);
    ::kill(::getpid(), sig);
    ::_exit(128 + sig);
}

std::string pivot_into(const fs::path& root) {
    // pivot_root(".", "."): the old root ends up under the new one, and is
    // then detached, so no path, "..", or fd-less trick leads back to it.
    if (::chdir(root.c_str()) != 0) return "chdir " + root.string() + ": " + errno_text();
    if (::syscall(SYS_pivot_root, ".", ".") != 0) return "pivot_root: " + errno_text();
    if (::umount2(".", MNT_DETACH) != 0) return "detach the old root: " + errno_text();
    if (::chdir("/") != 0) return "chdir /: " + errno_text();
    return {};
}

}  // namespace cuvet::sandbox
