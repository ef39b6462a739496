// containers-storage:NAME (podman, buildah, CRI-O). cuvet does not link
// containers/storage (a Go library); skopeo, when installed, reads it for us:
// `skopeo inspect --config` gives the exact config, and
// `skopeo copy … docker-archive:/dev/stdout` streams the image as a
// docker-save tar into the same streaming reader the Engine API uses.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "cuvet/core/error.hpp"
#include "image/config/config_parser.hpp"
#include "image/layers/streamed_archive.hpp"
#include "image/transports/daemon.hpp"

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
        if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
            fail_io(where_ +
                    ": skopeo is not installed (containers-storage is read through skopeo)");
        fail_input(where_ + ": skopeo failed: " + skopeo_failure_summary(message));
    }

    std::string where_;
    pid_t pid_ = -1;
    int out_ = -1;
    int err_ = -1;
};

}  // namespace

std::string skopeo_failure_summary(const std::string& stderr_text) {
    // skopeo's last line is often only the consequence ("Error: cannot set up
    // namespace"); the cause of a rootless failure (newuidmap missing, no
    // subuid range) is an earlier error or warning line.
    auto matters = [](const std::string& line) {
        for (const char* word :
             {"newuidmap", "newgidmap", "subuid", "subgid", "uid_map", "gid_map", "user namespace"})
            if (line.find(word) != std::string::npos) return true;
        return line.find("level=error") != std::string::npos ||
               line.find("level=fatal") != std::string::npos || line.rfind("ERRO", 0) == 0 ||
               line.rfind("FATA", 0) == 0 || line.rfind("Error", 0) == 0;
    };
    // `time="…" level=error msg="text"` says only "text".
    auto clean = [](std::string line) {
        if (auto msg = line.find("msg=\""); msg != std::string::npos) {
            line = line.substr(msg + 5);
            if (!line.empty() && line.back() == '"') line.pop_back();
        } else if (line.rfind("ERRO[", 0) == 0 || line.rfind("WARN[", 0) == 0 ||
                   line.rfind("FATA[", 0) == 0) {
            auto close = line.find("] ");
            if (close != std::string::npos) line = line.substr(close + 2);
        }
        return line;
    };
    std::vector<std::string> kept;
    std::string last;
    std::istringstream lines(stderr_text);
    for (std::string line; std::getline(lines, line);) {
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
        if (line.empty()) continue;
        last = clean(line);
        if (matters(line) && std::find(kept.begin(), kept.end(), last) == kept.end() &&
            kept.size() < 6)
            kept.push_back(last);
    }
    if (!last.empty() && std::find(kept.begin(), kept.end(), last) == kept.end())
        kept.push_back(last);
    std::string summary;
    for (const auto& line : kept) summary += (summary.empty() ? "" : " | ") + line;
    if (summary.empty()) summary = "no message";
    for (const char* word : {"newuidmap", "newgidmap", "subuid", "subgid"}) {
        if (stderr_text.find(word) != std::string::npos) {
            summary +=
                " (rootless containers-storage needs newuidmap/newgidmap, Debian package uidmap, "
                "and "
                "ranges for this user in /etc/subuid and /etc/subgid)";
            break;
        }
    }
    return summary;
}

std::unique_ptr<Image> open_containers_storage(const std::string& name,
                                               const OpenOptions& options) {
    const std::string where = "containers-storage:" + name;
    ProcessOutput inspect({"skopeo", "inspect", "--config", where}, where);
    ImageInfo info;
    info.format = "containers-storage";
    info.path = where;
    info.reference = name;
    std::string config_text = inspect.all();
    info.config = parse_config_text(config_text, where + " (config)");
    auto open_export = [where]() -> std::unique_ptr<ByteSource> {
        return std::make_unique<ProcessOutput>(
            std::vector<std::string>{"skopeo", "copy", "--quiet", where,
                                     "docker-archive:/dev/stdout"},
            where);
    };
    return open_streamed_archive(std::move(info), open_export, options);
}

}  // namespace cuvet::image
