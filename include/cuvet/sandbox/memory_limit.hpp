#pragma once
// A memory ceiling for what runs inside the sandbox: a cgroup v2 leaf of its
// own with memory.max (and no swap), removed again when this object goes.
// Where the host gives us no writable cgroup v2 memory controller (a
// container, cgroup v1, not root) there is no limit, and why_not() says so.
#include <cstdint>
#include <string>

namespace cuvet::sandbox {

class MemoryLimit {
public:
    MemoryLimit(std::uint64_t bytes, const std::string& cgroup_root = "/sys/fs/cgroup");
    ~MemoryLimit();
    MemoryLimit(const MemoryLimit&) = delete;
    MemoryLimit& operator=(const MemoryLimit&) = delete;

    const std::string& path() const { return path_; }        // the cgroup directory, "" when none
    const std::string& why_not() const { return why_not_; }  // why there is no limit

private:
    std::string path_;
    std::string why_not_;
};

}  // namespace cuvet::sandbox
