#pragma once
// podman's Docker-compatible API (`podman system service`) on a unix socket
// in a temporary directory, with its own vfs storage, for the daemon tests.
#include <sys/types.h>

#include <string>

#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace cuvet::test {

class PodmanService {
public:
    static bool available();  // podman and skopeo installed
    PodmanService();          // throws when the service does not come up
    ~PodmanService();
    PodmanService(const PodmanService&) = delete;
    PodmanService& operator=(const PodmanService&) = delete;

    std::string docker_host() const { return "unix://" + socket_; }
    // "containers-storage:[vfs@ROOT+RUNROOT]" + name: this service's storage.
    std::string storage(const std::string& name) const;
    // skopeo copy SOURCE into this storage as `name`.
    ProcessResult load(const std::string& source, const std::string& name) const;

private:
    TempDir dir_;
    std::string socket_;
    pid_t pid_ = -1;
};

}  // namespace cuvet::test
