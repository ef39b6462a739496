#pragma once
// The system calls a sandboxed program may not make (the kernel answers
// EPERM): the mount and namespace calls that could undo the sandbox, the
// debugging and kernel-extension calls that reach other processes or the
// kernel itself, and the clock setters. clone with a namespace flag is denied
// too, and clone3 answers ENOSYS so that libc falls back to clone, whose flags
// a classic BPF filter can read. Everything else is allowed: CUDA needs ioctl
// and mmap freely. x86-64 only; another architecture's or x32's calls are
// refused outright.
#include <string>
#include <vector>

namespace cuvet::sandbox {

// The denied calls' names, for the docs and the report.
const std::vector<std::string>& denied_syscalls();

// Installs the filter on the calling thread (no_new_privs must be set).
// Returns "" or why it could not.
std::string install_seccomp_filter();

}  // namespace cuvet::sandbox
