// containers-storage:NAME (podman, buildah, CRI-O). cuvet does not link
// containers/storage (a Go library); skopeo, when installed, reads it for us:
// `skopeo inspect --config` gives the exact config, and
// `skopeo copy … docker-archive:/dev/stdout` streams the image as a
// docker-save tar into the same streaming reader the Engine API uses.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>

#include "config_parser.hpp"
#include "cuvet/core/error.hpp"
#include "daemon.hpp"
#include "streamed_archive.hpp"

namespace cuvet::image {
namespace {

// A child process's stdout as a ByteSource; its exit status is checked at
// the end of the stream, so a failed skopeo is an error, not a short image.
class ProcessOutput : public ByteSource {
public:
    ProcessOutput(const std::vector<std::string>& argv, std::string where)
        : where_(std::move(where)) {
        int out[2], err[2];
        if (pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0)
            fail_io(where_ + ": pipe: " + std::strerror(errno));
        std::vector<char*> args;
        for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
        args.push_back(nullptr);
        pid_ = fork();
        if (pid_ == 0) {
            dup2(out[1], 1);
            dup2(err[1], 2);
            execvp(args[0], args.data());
            _exit(127);
        }
        ::close(out[1]);
        ::close(err[1]);
        out_ = out[0];
        err_ = err[0];
        if (pid_ < 0) fail_io(where_ + ": cannot start " + argv[0]);
    }
    ~ProcessOutput() override {
        if (pid_ > 0) {
            ::kill(pid_, SIGTERM);
            waitpid(pid_, nullptr, 0);
        }
        ::close(out_);
        ::close(err_);
    }
    std::size_t read(char* buffer, std::size_t capacity) override {
        ssize_t got;
        do {
            got = ::read(out_, buffer, capacity);
        } while (got < 0 && errno == EINTR);
        if (got < 0) fail_io(where_ + ": " + std::strerror(errno));
        if (got == 0) finish();
        return static_cast<std::size_t>(got);
    }
    // Everything it printed, once it has exited successfully.
    std::string all() {
        std::string text;
        char buffer[65536];
        while (std::size_t got = read(buffer, sizeof buffer)) text.append(buffer, got);
        return text;
    }

private:
    void finish() {
        if (pid_ <= 0) return;
        std::string message;
        char buffer[4096];
        ssize_t got;
        while ((got = ::read(err_, buffer, sizeof buffer)) > 0)
            if (message.size() < 65536) message.append(buffer, static_cast<std::size_t>(got));
        int status = 0;
        waitpid(pid_, &status, 0);
        pid_ = -1;
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
        while (!message.empty() && (message.back() == '\n' || message.back() == ' '))
            message.pop_back();
        if (auto newline = message.rfind('\n'); newline != std::string::npos)
            message = message.substr(newline + 1);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
            fail_io(where_ +
                    ": skopeo is not installed (containers-storage is read through skopeo)");
        fail_input(where_ + ": skopeo failed: " + message);
    }

    std::string where_;
    pid_t pid_ = -1;
    int out_ = -1;
    int err_ = -1;
};

}  // namespace

std::unique_ptr<Image> open_containers_storage(const std::string& name,
                                               const OpenOptions& options) {
    const std::string where = "containers-storage:" + name;
    ProcessOutput inspect({"skopeo", "inspect", "--config", where}, where);
    ImageInfo info;
    info.format = "containers-storage";
    info.path = where;
    info.reference = name;
    std::string config_text = inspect.all();
    info.config = parse_config(parse_json(config_text, where + " (config)"), where + " (config)");
    auto open_export = [where]() -> std::unique_ptr<ByteSource> {
        return std::make_unique<ProcessOutput>(
            std::vector<std::string>{"skopeo", "copy", "--quiet", where,
                                     "docker-archive:/dev/stdout"},
            where);
    };
    return open_streamed_archive(std::move(info), open_export, options);
}

}  // namespace cuvet::image
