#include "cuvet/sandbox/device_nodes.hpp"

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "cuvet/core/errno_text.hpp"

namespace cuvet::sandbox {
namespace {

namespace fs = std::filesystem;

// A bind of the host's node (the toolkit binds too); the bind carries nosuid
// and noexec, and the tmpfs under it stays nodev for anything else.
std::string bind_node(const fs::path& host, const fs::path& target) {
    struct stat info {};
    if (::stat(host.c_str(), &info) != 0) return {};  // absent on this host: not an error
    if (S_ISDIR(info.st_mode)) {
        ::mkdir(target.c_str(), 0755);
    } else {
        const int fd = ::open(target.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
        if (fd >= 0) ::close(fd);
    }
    if (::mount(host.c_str(), target.c_str(), nullptr, MS_BIND | MS_REC, nullptr) != 0)
        return "bind " + host.string() + ": " + errno_text();
    if (::mount(nullptr, target.c_str(), nullptr, MS_BIND | MS_REMOUNT | MS_NOSUID | MS_NOEXEC,
                nullptr) != 0)
        return "remount " + target.string() + " nosuid,noexec: " + errno_text();
    return {};
}

}  // namespace

const std::vector<std::string>& basic_device_nodes() {
    static const std::vector<std::string> nodes = {"null", "zero", "full", "random", "urandom"};
    return nodes;
}

std::string populate_dev(const fs::path& dev, const std::vector<fs::path>& gpu_nodes) {
    if (::mount("tmpfs", dev.c_str(), "tmpfs", MS_NOSUID | MS_NOEXEC | MS_NODEV,
                "mode=0755,size=1m") != 0)
        return "mount tmpfs on /dev: " + errno_text();
    for (const std::string& node : basic_device_nodes()) {
        std::string error = bind_node(fs::path("/dev") / node, dev / node);
        if (!error.empty()) return error;
    }
    for (const fs::path& node : gpu_nodes) {
        // /dev/nvidia-caps/nvidia-cap1 (a CDI spec names nodes one by one) keeps its folder.
        const fs::path relative = node.lexically_relative("/dev");
        const fs::path target =
            relative.empty() || *relative.begin() == ".." ? dev / node.filename() : dev / relative;
        if (target.parent_path() != dev) {
            std::error_code ignored;
            fs::create_directories(target.parent_path(), ignored);
        }
        std::string error = bind_node(node, target);
        if (!error.empty()) return error;
    }
    const fs::path shm = dev / "shm";
    ::mkdir(shm.c_str(), 01777);
    if (::mount("tmpfs", shm.c_str(), "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
                "mode=1777,size=1g") != 0)
        return "mount tmpfs on /dev/shm: " + errno_text();
    ::symlink("/proc/self/fd", (dev / "fd").c_str());
    ::symlink("/proc/self/fd/0", (dev / "stdin").c_str());
    ::symlink("/proc/self/fd/1", (dev / "stdout").c_str());
    ::symlink("/proc/self/fd/2", (dev / "stderr").c_str());
    if (::mount(nullptr, dev.c_str(), nullptr,
                MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NOEXEC | MS_NODEV, nullptr) != 0)
        return "remount /dev read-only: " + errno_text();
    return {};
}

}  // namespace cuvet::sandbox
