#pragma once
// Writing an image's merged file system to a directory, so that a program
// can run inside it (chroot). Nothing is ever written outside that directory:
// every path is checked, every directory is entered with O_NOFOLLOW, and links
// are created only as links, never followed.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "cuvet/image/image.hpp"

namespace cuvet::sandbox {

struct ExtractStats {
    std::size_t files = 0;
    std::size_t directories = 0;
    std::size_t symlinks = 0;
    std::size_t hardlinks = 0;
    std::uint64_t bytes = 0;
    // Entries that could not be placed safely (a path below a symlink, a
    // device node, a hard link to nothing), each with the reason.
    std::vector<std::string> skipped;
};

// `rootfs` must be an empty or missing directory; `staging` a scratch
// directory on the same file system (bytes land there during the scan and
// are renamed into place once the final tree is known).
// The merged tree is handed back through `tree` when given.
ExtractStats extract_rootfs(const image::Image& image, const std::filesystem::path& rootfs,
                            const std::filesystem::path& staging, image::FileTree* tree = nullptr);

// Opens (creating when asked) the directory at `relative` below `root_fd`
// without following any symlink. Returns -1 with errno set on failure.
int open_dir_nofollow(int root_fd, const std::string& relative, bool create);

}  // namespace cuvet::sandbox
