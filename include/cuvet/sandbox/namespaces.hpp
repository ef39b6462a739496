#pragma once
// The namespace and privilege steps of the built-in sandbox, each a small
// call made between fork and exec (child side, single-threaded):
//   - a user namespace whose root is an unprivileged host id (sandbox_id_base),
//     so that the image's "root" owns nothing on the host and its capabilities
//     reach only namespaces it owns (none: the mount, PID and network
//     namespaces are made before it, by host root, so the image cannot remount);
//   - a PID namespace in which the program is PID 1 (its own procfs; every
//     process it starts dies with it);
//   - pivot_root into the image with the old root detached (no chroot escape);
//   - every capability dropped, securebits locked, no_new_privs.
#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <string>

namespace cuvet::sandbox {

// Image uid/gid N is host id sandbox_id_base + N, for N < sandbox_id_count
// (as rootless podman maps a /etc/subuid range); other ids become "nobody".
inline constexpr std::uint32_t sandbox_id_base = 2'000'000'000u;
inline constexpr std::uint32_t sandbox_id_count = 65536u;

// Gives the extracted tree's files the ids they have inside the sandbox's user
// namespace (lchown, links never followed). Returns how many entries changed;
// a tree already shifted is left alone.
std::size_t shift_ownership(const std::filesystem::path& rootfs);

// From host root: a new user namespace mapping 0..count-1 to base..; then
// uid/gid 0 inside, with no supplementary groups. "" or why not.
std::string enter_user_namespace();

// Bounding, ambient, effective, permitted and inheritable sets emptied,
// securebits locked (root gains nothing on exec), no_new_privs.
std::string drop_privileges();

// After unshare(CLONE_NEWPID): forks the namespace's PID 1, which returns
// ""; the caller's process stays outside, waits, and exits with PID 1's status
// (or dies of its signal), so it never returns.
std::string become_pid_one();

// Makes `root` (a mount point) "/", with the old root unmounted (detached).
std::string pivot_into(const std::filesystem::path& root);

}  // namespace cuvet::sandbox
