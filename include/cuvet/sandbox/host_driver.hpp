#pragma once
// The host's NVIDIA driver, as nvidia-container-toolkit finds it: the
// user-space driver libraries (from the ld.so cache, or the directories GPU
// hosts and images use) and the /dev/nvidia* device nodes.
#include <filesystem>
#include <string>
#include <vector>

namespace cuvet::sandbox {

struct DriverLibrary {
    std::string soname;          // "libcuda.so.1": the name it gets inside the image
    std::filesystem::path path;  // the host file (symlinks resolved)
};

// A host file placed at a given path of the image (a CDI spec's mount).
struct InjectedFile {
    std::filesystem::path host;
    std::string image_path;
};

struct InjectedLink {
    std::string target;
    std::string image_path;
};

struct HostDriver {
    std::vector<DriverLibrary> libraries;  // copied into the image's library directory by soname
    // From a CDI spec instead (driver_from_cdi): files at their own paths, the
    // links of its create-symlinks hook, the folders its update-ldcache hook adds.
    std::vector<InjectedFile> files;
    std::vector<InjectedLink> links;
    std::vector<std::string> ldcache_folders;
    std::vector<std::string> environment;
    std::string cdi_spec;  // the spec file, "" when found the toolkit's legacy way
    std::vector<std::filesystem::path>
        device_nodes;                   // /dev/nvidiactl, /dev/nvidia0, /dev/nvidia-uvm, …
    std::vector<std::string> searched;  // where we looked, for the "not found" message

    bool has_libcuda() const;
};

// The compute + utility libraries the toolkit mounts for
// NVIDIA_DRIVER_CAPABILITIES=compute,utility.
const std::vector<std::string>& driver_library_prefixes();

// `ldconfig_output` is `ldconfig -p`'s text (empty: run it); `extra_dirs` are
// scanned after the cache (default: /usr/local/nvidia/lib64 and the usual lib dirs).
HostDriver find_host_driver(const std::string& ldconfig_output = {},
                            std::vector<std::filesystem::path> extra_dirs = {},
                            const std::filesystem::path& dev_dir = "/dev");

// Parses `ldconfig -p` lines for x86-64 objects: soname -> path, first wins.
std::vector<DriverLibrary> parse_ldconfig(const std::string& text);

}  // namespace cuvet::sandbox
