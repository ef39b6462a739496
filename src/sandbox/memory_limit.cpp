#include "cuvet/sandbox/memory_limit.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace cuvet::sandbox {
namespace {

std::string read_all(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

bool write_value(const std::string& path, const std::string& value) {
    std::ofstream out(path);
    out << value;
    out.flush();
    return static_cast<bool>(out);
}

bool has_word(const std::string& text, const std::string& word) {
    std::istringstream words(text);
    std::string item;
    while (words >> item) {
        if (item == word) return true;
    }
    return false;
}

// Groups a killed cuvet left behind ("cuvet-<pid>-<n>" of a pid that is gone);
// rmdir only succeeds on an empty group, so a live one is never touched.
void remove_stale(const std::string& cgroup_root) {
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(cgroup_root, error)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("cuvet-", 0) != 0) continue;
        const std::string pid = name.substr(6, name.find('-', 6) - 6);
        if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) continue;
        if (std::filesystem::exists("/proc/" + pid, error)) continue;
        ::rmdir(entry.path().c_str());
    }
}

}  // namespace

MemoryLimit::MemoryLimit(std::uint64_t bytes, const std::string& cgroup_root) {
    if (bytes == 0) {
        why_not_ = "no memory limit asked for";
        return;
    }
    // The leaf only gets a memory.max file when its parent hands the memory controller down.
    if (!has_word(read_all(cgroup_root + "/cgroup.subtree_control"), "memory")) {
        why_not_ = "memory not limited: no cgroup v2 memory controller delegated at " + cgroup_root;
        return;
    }
    remove_stale(cgroup_root);
    static std::atomic<unsigned> counter{0};
    const std::string dir =
        cgroup_root + "/cuvet-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
    if (::mkdir(dir.c_str(), 0755) != 0) {
        why_not_ = "memory not limited: " + dir + ": " + std::strerror(errno);
        return;
    }
    if (!write_value(dir + "/memory.max", std::to_string(bytes))) {
        ::rmdir(dir.c_str());
        why_not_ = "memory not limited: cannot write " + dir + "/memory.max";
        return;
    }
    write_value(dir + "/memory.swap.max",
                "0");  // absent without swap accounting: the limit still holds
    path_ = dir;
}

MemoryLimit::~MemoryLimit() {
    if (path_.empty()) return;
    // The processes were killed or have exited; the kernel may need a moment to let the group go.
    for (int attempt = 0; attempt < 50; ++attempt) {
        if (::rmdir(path_.c_str()) == 0 || errno == ENOENT) return;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

}  // namespace cuvet::sandbox
