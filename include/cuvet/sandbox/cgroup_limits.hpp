#pragma once
// Ceilings for what runs inside the sandbox: a cgroup v2 leaf of its own with
// memory.max (and no swap), pids.max and cpu.max, removed again when this
// object goes. Only the controllers the host delegates to us are used; each
// one missing is named in notes() (a container, cgroup v1, not root). The
// process count is also capped by RLIMIT_NPROC in the sandbox's own user
// namespace, which needs no cgroup.
#include <cstdint>
#include <string>
#include <vector>

namespace cuvet::sandbox {

struct CgroupLimitSpec {
    std::uint64_t memory_bytes = 32ULL << 30;  // 0: no memory limit
    std::uint32_t max_pids = 4096;             // 0: none
    double cpus = 0;                           // 0: the host's CPUs less one (at least one)
};

class CgroupLimits {
public:
    explicit CgroupLimits(const CgroupLimitSpec& spec,
                          const std::string& cgroup_root = "/sys/fs/cgroup");
    ~CgroupLimits();
    CgroupLimits(const CgroupLimits&) = delete;
    CgroupLimits& operator=(const CgroupLimits&) = delete;

    const std::string& path() const { return path_; }  // the cgroup directory, "" when none
    const std::vector<std::string>& notes() const { return notes_; }  // limits not applied, and why
    bool limits_memory() const { return memory_; }

private:
    std::string path_;
    std::vector<std::string> notes_;
    bool memory_ = false;
};

}  // namespace cuvet::sandbox
