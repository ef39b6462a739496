#include "support/podman_service.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <thread>

namespace cuvet::test {

bool PodmanService::available() { return have_program("podman") && have_program("skopeo"); }

PodmanService::PodmanService() {
    socket_ = (dir_ / "podman.sock").string();
    const std::string root = (dir_ / "root").string(), runroot = (dir_ / "run").string();
    const std::string log = (dir_ / "service.log").string();
    const std::string address = "unix://" + socket_;
    pid_ = fork();
    if (pid_ == 0) {
        int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, 1), dup2(fd, 2);
        execlp("podman", "podman", "--root", root.c_str(), "--runroot", runroot.c_str(),
               "--storage-driver", "vfs", "system", "service", "--time=0", address.c_str(),
               static_cast<char*>(nullptr));
        _exit(127);
    }
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    struct stat info {};
    while (::stat(socket_.c_str(), &info) != 0 || !S_ISSOCK(info.st_mode)) {
        if (std::chrono::steady_clock::now() > deadline ||
            waitpid(pid_, nullptr, WNOHANG) == pid_) {
            pid_ = -1;
            throw std::runtime_error("podman system service did not start: " + read_file(log));
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
}

PodmanService::~PodmanService() {
    if (pid_ > 0) {
        ::kill(pid_, SIGTERM);
        waitpid(pid_, nullptr, 0);
    }
}

std::string PodmanService::storage(const std::string& name) const {
    return "containers-storage:[vfs@" + (dir_ / "root").string() + "+" + (dir_ / "run").string() +
           "]" + name;
}

ProcessResult PodmanService::load(const std::string& source, const std::string& name) const {
    return run_shell("skopeo copy --quiet " + shell_quote(source) + " " +
                     shell_quote(storage(name)));
}

}  // namespace cuvet::test
