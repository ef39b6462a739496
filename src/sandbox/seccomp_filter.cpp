#include "cuvet/sandbox/seccomp_filter.hpp"

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace cuvet::sandbox {
namespace {

struct Denied {
    long number;
    const char* name;
};

#define CUVET_DENY(name) \
    { __NR_##name, #name }

// Docker's and podman's default profiles deny these to an unprivileged
// container too (moby profiles/seccomp/default.json); chroot stays allowed
// (the capability to use it is dropped) so that an image's own tooling sees
// the usual EPERM rather than a missing call.
constexpr Denied denied_table[] = {
    CUVET_DENY(mount),
    CUVET_DENY(umount2),
    CUVET_DENY(pivot_root),
    CUVET_DENY(setns),
    CUVET_DENY(unshare),
    CUVET_DENY(ptrace),
    CUVET_DENY(process_vm_readv),
    CUVET_DENY(process_vm_writev),
    CUVET_DENY(kcmp),
    CUVET_DENY(bpf),
    CUVET_DENY(perf_event_open),
    CUVET_DENY(userfaultfd),
    CUVET_DENY(keyctl),
    CUVET_DENY(add_key),
    CUVET_DENY(request_key),
    CUVET_DENY(kexec_load),
    CUVET_DENY(kexec_file_load),
    CUVET_DENY(init_module),
    CUVET_DENY(finit_module),
    CUVET_DENY(delete_module),
    CUVET_DENY(clock_settime),
    CUVET_DENY(clock_adjtime),
    CUVET_DENY(adjtimex),
    CUVET_DENY(settimeofday),
    CUVET_DENY(open_by_handle_at),
    CUVET_DENY(name_to_handle_at),
    CUVET_DENY(swapon),
    CUVET_DENY(swapoff),
    CUVET_DENY(reboot),
    CUVET_DENY(acct),
    CUVET_DENY(quotactl),
    CUVET_DENY(syslog),
    CUVET_DENY(iopl),
    CUVET_DENY(ioperm),
    CUVET_DENY(uselib),
    CUVET_DENY(vhangup),
    CUVET_DENY(lookup_dcookie),
    CUVET_DENY(fanotify_init),
    CUVET_DENY(io_uring_setup),
    CUVET_DENY(io_uring_enter),
    CUVET_DENY(io_uring_register),
    CUVET_DENY(open_tree),
    CUVET_DENY(move_mount),
    CUVET_DENY(fsopen),
    CUVET_DENY(fsconfig),
    CUVET_DENY(fsmount),
    CUVET_DENY(fspick),
    CUVET_DENY(mount_setattr),
    CUVET_DENY(sethostname),
    CUVET_DENY(setdomainname),
};

#undef CUVET_DENY

constexpr unsigned namespace_flags = CLONE_NEWNS | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET |
                                     CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWCGROUP |
                                     0x80 /* CLONE_NEWTIME */;

constexpr std::uint32_t errno_return(int error) {
    return SECCOMP_RET_ERRNO | (static_cast<std::uint32_t>(error) & SECCOMP_RET_DATA);
}

sock_filter statement(std::uint16_t code, std::uint32_t k) { return BPF_STMT(code, k); }
sock_filter jump(std::uint16_t code, std::uint32_t k, std::uint8_t yes, std::uint8_t no) {
    return BPF_JUMP(code, k, yes, no);
}

std::vector<sock_filter> build_program() {
    std::vector<sock_filter> program;
    const auto nr = static_cast<std::uint32_t>(offsetof(seccomp_data, nr));
    const auto arch = static_cast<std::uint32_t>(offsetof(seccomp_data, arch));
    const auto arg0 =
        static_cast<std::uint32_t>(offsetof(seccomp_data, args));  // low half on x86-64
    program.push_back(statement(BPF_LD | BPF_W | BPF_ABS, arch));
    program.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0));
    program.push_back(statement(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
    program.push_back(statement(BPF_LD | BPF_W | BPF_ABS, nr));
    // x32 calls carry bit 30 and would slip past the numbers below.
    program.push_back(jump(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1));
    program.push_back(statement(BPF_RET | BPF_K, errno_return(EPERM)));
    for (const Denied& call : denied_table) {
        program.push_back(
            jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<std::uint32_t>(call.number), 0, 1));
        program.push_back(statement(BPF_RET | BPF_K, errno_return(EPERM)));
    }
    program.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone3, 0, 1));
    program.push_back(statement(BPF_RET | BPF_K, errno_return(ENOSYS)));
    program.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone, 0, 3));
    program.push_back(statement(BPF_LD | BPF_W | BPF_ABS, arg0));
    program.push_back(jump(BPF_JMP | BPF_JSET | BPF_K, namespace_flags, 0, 1));
    program.push_back(statement(BPF_RET | BPF_K, errno_return(EPERM)));
    program.push_back(statement(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
    return program;
}

}  // namespace

const std::vector<std::string>& denied_syscalls() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (const Denied& call : denied_table) out.emplace_back(call.name);
        out.emplace_back("clone with a CLONE_NEW* flag");
        return out;
    }();
    return names;
}

std::string install_seccomp_filter() {
#if !defined(__x86_64__)
    return "seccomp filter: only built for x86-64";
#else
    std::vector<sock_filter> program = build_program();
    sock_fprog fprog{static_cast<unsigned short>(program.size()), program.data()};
    if (::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog, 0, 0) != 0)
        return std::string("seccomp filter: ") + std::strerror(errno);
    return {};
#endif
}

}  // namespace cuvet::sandbox
