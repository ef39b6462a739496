#include "cuvet/sandbox/cgroup_limits.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
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

std::string cpu_max(double cpus) {
    if (cpus <= 0) {
        const long online = ::sysconf(_SC_NPROCESSORS_ONLN);
        cpus = std::max(1.0, static_cast<double>(online) - 1);
    }
    constexpr long period = 100000;
    return std::to_string(static_cast<long>(cpus * period)) + " " + std::to_string(period);
}

}  // namespace

CgroupLimits::CgroupLimits(const CgroupLimitSpec& spec, const std::string& cgroup_root) {
    // A leaf only gets a controller's files when its parent hands the controller down.
    const std::string delegated = read_all(cgroup_root + "/cgroup.subtree_control");
    const bool memory = spec.memory_bytes != 0 && has_word(delegated, "memory");
    const bool pids = spec.max_pids != 0 && has_word(delegated, "pids");
    const bool cpu = has_word(delegated, "cpu");
    const std::string where = " at " + cgroup_root;
    if (spec.memory_bytes != 0 && !memory)
        notes_.push_back("memory not limited: no cgroup v2 memory controller delegated" + where);
    if (spec.max_pids != 0 && !pids)
        notes_.push_back(
            "processes limited by RLIMIT_NPROC only: no cgroup v2 pids controller delegated" +
            where);
    if (!cpu) notes_.push_back("CPU not limited: no cgroup v2 cpu controller delegated" + where);
    if (!memory && !pids && !cpu) return;
    remove_stale(cgroup_root);
    static std::atomic<unsigned> counter{0};
    const std::string dir =
        cgroup_root + "/cuvet-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
    if (::mkdir(dir.c_str(), 0755) != 0) {
        notes_.push_back("no cgroup limits: " + dir + ": " + std::strerror(errno));
        return;
    }
    if (memory) {
        memory_ = write_value(dir + "/memory.max", std::to_string(spec.memory_bytes));
        if (!memory_) notes_.push_back("memory not limited: cannot write " + dir + "/memory.max");
        write_value(dir + "/memory.swap.max",
                    "0");  // absent without swap accounting: the limit still holds
    }
    if (pids && !write_value(dir + "/pids.max", std::to_string(spec.max_pids)))
        notes_.push_back("cannot write " + dir + "/pids.max");
    if (cpu && !write_value(dir + "/cpu.max", cpu_max(spec.cpus)))
        notes_.push_back("cannot write " + dir + "/cpu.max");
    path_ = dir;
}

CgroupLimits::~CgroupLimits() {
    if (path_.empty()) return;
    // The processes were killed or have exited; the kernel may need a moment to let the group go.
    for (int attempt = 0; attempt < 50; ++attempt) {
        if (::rmdir(path_.c_str()) == 0 || errno == ENOENT) return;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

}  // namespace cuvet::sandbox
