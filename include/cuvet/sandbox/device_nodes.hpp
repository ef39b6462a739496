#pragma once
// The sandbox's /dev: a small read-only tmpfs holding only null, zero, full,
// random, urandom, the GPU's nodes (bound from the host, never mknod'ed),
// a private /dev/shm and the fd/stdin/stdout/stderr links. No block device,
// no /dev/mem, no tty, no /dev/kmsg: an image that wants more does not get it.
#include <filesystem>
#include <string>
#include <vector>

namespace cuvet::sandbox {

// The host nodes every program gets besides the GPU's.
const std::vector<std::string>& basic_device_nodes();

// Fills `dev` (an empty directory of the image's tree, in a private mount
// namespace, as host root). `gpu_nodes` are host paths (/dev/nvidia0,
// /dev/nvidiactl, /dev/nvidia-caps, …). "" or why not.
std::string populate_dev(const std::filesystem::path& dev,
                         const std::vector<std::filesystem::path>& gpu_nodes);

}  // namespace cuvet::sandbox
