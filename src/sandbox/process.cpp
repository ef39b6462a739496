#include "cuvet/sandbox/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "cuvet/core/error.hpp"

extern char** environ;

namespace cuvet::sandbox {
namespace {

constexpr const char* setup_marker = "cuvet-sandbox: ";

std::vector<char*> c_strings(const std::vector<std::string>& words) {
    std::vector<char*> pointers;
    for (const std::string& word : words) pointers.push_back(const_cast<char*>(word.c_str()));
    pointers.push_back(nullptr);
    return pointers;
}

void write_all(int fd, const std::string& text) {
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n <= 0) return;
        done += static_cast<std::size_t>(n);
    }
}

[[noreturn]] void child(const ProcessSpec& spec, int out_fd, int err_fd) {
    ::setpgid(0, 0);
    const int null_fd = ::open("/dev/null", O_RDONLY);
    if (null_fd >= 0) ::dup2(null_fd, STDIN_FILENO);
    ::dup2(out_fd, STDOUT_FILENO);
    ::dup2(err_fd, STDERR_FILENO);
    if (spec.child_setup) {
        const std::string error = spec.child_setup();
        if (!error.empty()) {
            write_all(STDERR_FILENO, setup_marker + error + "\n");
            ::_exit(exit_setup_failed);
        }
    }
    std::vector<char*> argv = c_strings(spec.argv);
    std::vector<char*> env = c_strings(spec.environment);
    char** envp = spec.inherit_environment && spec.environment.empty() ? environ : env.data();
    if (spec.search_path) {
        ::execvpe(argv[0], argv.data(), envp);
    } else {
        ::execve(argv[0], argv.data(), envp);
    }
    write_all(STDERR_FILENO, std::string(setup_marker) + "cannot run " + spec.argv[0] + ": " +
                                 std::strerror(errno) + "\n");
    ::_exit(exit_exec_failed);
}

// The child's setup failures come back as its last stderr line.
std::string setup_error_from(const std::string& err) {
    const std::size_t at = err.rfind(setup_marker);
    if (at == std::string::npos) return {};
    std::string line = err.substr(at + std::strlen(setup_marker));
    while (!line.empty() && line.back() == '\n') line.pop_back();
    return line;
}

// Appends what fits under `limit`; past it the program's whole group is
// killed once and the rest is read and dropped until the pipes close.
// Returns true the one time it kills.
bool keep_bounded(std::string& sink, const char* data, std::size_t size, std::size_t limit,
                  ProcessResult& result, pid_t pid) {
    const std::size_t room = sink.size() < limit ? limit - sink.size() : 0;
    sink.append(data, std::min(size, room));
    if (size <= room || result.output_truncated) return false;
    result.output_truncated = true;
    ::kill(-pid, SIGKILL);
    return true;
}

}  // namespace

ProcessResult run_process(const ProcessSpec& spec) {
    if (spec.argv.empty()) throw Error(ErrorKind::internal, "run_process: empty argv");
    int out_pipe[2], err_pipe[2];
    if (::pipe2(out_pipe, O_CLOEXEC) != 0) fail_io(std::string("pipe: ") + std::strerror(errno));
    if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
        ::close(out_pipe[0]);
        ::close(out_pipe[1]);
        fail_io(std::string("pipe: ") + std::strerror(errno));
    }
    const auto start = std::chrono::steady_clock::now();
    const pid_t pid = ::fork();
    if (pid < 0) fail_io(std::string("fork: ") + std::strerror(errno));
    if (pid == 0) child(spec, out_pipe[1], err_pipe[1]);
    ::setpgid(pid, pid);  // also here: no race with a kill before the child ran setpgid
    ::close(out_pipe[1]);
    ::close(err_pipe[1]);

    ProcessResult result;
    const auto deadline = start + spec.timeout;
    auto killed_at = deadline;
    pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
    std::string* sinks[2] = {&result.out, &result.err};
    int open_pipes = 2;
    while (open_pipes > 0) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0 && !result.timed_out) {
            result.timed_out = true;
            ::kill(-pid, SIGKILL);
        }
        // After the kill, keep draining: the pipes close once the group is gone.
        const int wait_ms =
            result.timed_out ? 1000 : static_cast<int>(std::min<long long>(left.count(), 1000));
        const int ready = ::poll(fds, 2, wait_ms);
        if (ready < 0 && errno != EINTR) break;
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
            char buffer[65536];
            const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
            if (n > 0) {
                if (keep_bounded(*sinks[i], buffer, static_cast<std::size_t>(n), spec.max_output,
                                 result, pid))
                    killed_at = std::chrono::steady_clock::now();
            } else if (n == 0 || errno != EINTR) {
                ::close(fds[i].fd);
                fds[i].fd = -1;
                --open_pipes;
            }
        }
        // A grandchild that escaped the group could hold a pipe open forever.
        if ((result.timed_out || result.output_truncated) &&
            std::chrono::steady_clock::now() >
                std::min(deadline, killed_at) + std::chrono::seconds(5))
            break;
    }
    for (pollfd& fd : fds) {
        if (fd.fd >= 0) ::close(fd.fd);
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status)) {
        result.exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        result.signal = WTERMSIG(status);
    }
    result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (result.exit_code == exit_setup_failed || result.exit_code == exit_exec_failed) {
        result.setup_error = setup_error_from(result.err);
    }
    return result;
}

}  // namespace cuvet::sandbox
