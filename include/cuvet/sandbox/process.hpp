#pragma once
// Starting a program with a deadline and capturing what it prints: the one
// primitive both probe runners (built-in chroot, docker/podman) stand on.
#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace cuvet::sandbox {

inline constexpr std::size_t default_max_output = 16u << 20;

struct ProcessSpec {
    std::vector<std::string> argv;  // argv[0] is a path (execv, no PATH search) unless search_path
    bool search_path = false;
    // The child's whole environment; empty with inherit_environment: the parent's.
    std::vector<std::string> environment;
    bool inherit_environment = false;
    // Runs in the child between fork and exec (namespaces, mounts, chroot).
    // Returns an error text, or "" to go on. Only async-signal-safe-ish work:
    // the parent has no other threads at that point.
    std::function<std::string()> child_setup;
    std::chrono::milliseconds timeout{std::chrono::seconds(120)};
    // At most this many bytes are kept of stdout and of stderr each; a program
    // that prints more is killed (its group) and output_truncated set, so a
    // hostile image cannot make cuvet itself grow without bound.
    std::size_t max_output = default_max_output;
};

struct ProcessResult {
    int exit_code = -1;  // -1 when killed by a signal
    int signal = 0;
    bool timed_out = false;
    bool output_truncated = false;  // printed more than max_output: killed, the rest dropped
    std::string setup_error;        // child_setup's error, or why exec failed
    std::string out;
    std::string err;
    double seconds = 0;
};

// Exit codes the child uses when it never reached the program.
inline constexpr int exit_setup_failed = 125;
inline constexpr int exit_exec_failed = 127;

// The child gets its own process group; on timeout the whole group is killed
// (SIGKILL), so helpers it started die with it.
ProcessResult run_process(const ProcessSpec& spec);

}  // namespace cuvet::sandbox
