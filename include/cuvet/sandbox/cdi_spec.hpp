#pragma once
// A Container Device Interface spec for the GPU (what `nvidia-ctk cdi
// generate` writes to /etc/cdi/nvidia.yaml or /var/run/cdi), read so that the
// built-in sandbox injects exactly what the host's toolkit would: its device
// nodes, its mounts (driver libraries, firmware, binaries), the symlinks of
// its create-symlinks hook and the folders of its update-ldcache hook.
// Only kind nvidia.com/gpu is read, with every device of it ("=all").
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cuvet/sandbox/host_driver.hpp"

namespace cuvet::sandbox {

struct CdiDeviceNode {
    std::string path;       // inside the container
    std::string host_path;  // on the host ("" = path)
};

struct CdiMount {
    std::string host_path;
    std::string container_path;
};

struct CdiSymlink {
    std::string target;  // what the link points to
    std::string link;    // the link's path inside the container
};

struct CdiEdits {
    std::string spec_file;
    std::vector<std::string> env;
    std::vector<CdiDeviceNode> device_nodes;
    std::vector<CdiMount> mounts;
    std::vector<CdiSymlink> symlinks;          // create-symlinks hooks
    std::vector<std::string> ldcache_folders;  // update-ldcache hooks' --folder
    std::vector<std::string> ignored_hooks;    // hooks cuvet does not run (named in the report)
};

// Parses one spec (YAML or JSON); nullopt when it is not kind nvidia.com/gpu.
// Throws cuvet::Error (bad input) naming `name` when the text is not a spec.
std::optional<CdiEdits> parse_cdi_spec(const std::string& text, const std::string& name);

// The first nvidia.com/gpu spec in `dirs` (*.yaml, *.yml, *.json, sorted), or nullopt.
std::optional<CdiEdits> find_gpu_cdi_spec(const std::vector<std::filesystem::path>& dirs);

// What the built-in sandbox injects for it: the device nodes (host paths),
// the mounts as files at their container paths, the links and folders.
HostDriver driver_from_cdi(const CdiEdits& edits);

}  // namespace cuvet::sandbox
