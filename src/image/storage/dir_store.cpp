// BlobStore over a directory (an OCI layout, or an unpacked docker save).
#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "cuvet/core/error.hpp"
#include "image/storage/blob_store.hpp"

namespace cuvet::image {
namespace {

class DirStore : public BlobStore {
public:
    explicit DirStore(std::filesystem::path root)
        : root_(std::filesystem::weakly_canonical(root)) {}

    std::optional<std::uint64_t> size(const std::string& path) const override {
        auto full = locate(path);
        struct stat info {};
        if (::stat(full.c_str(), &info) != 0) {
            if (errno == ENOENT || errno == ENOTDIR) return std::nullopt;
            fail_io(describe(path) + ": " + std::strerror(errno));
        }
        if (S_ISDIR(info.st_mode)) fail_input(describe(path) + ": is a directory, expected a file");
        // A FIFO would block the reader forever, a device would never end.
        if (!S_ISREG(info.st_mode))
            fail_input(describe(path) +
                       ": a FIFO, socket or device, not a regular file; refusing to read it");
        return static_cast<std::uint64_t>(info.st_size);
    }

    std::unique_ptr<ByteSource> open(const std::string& path) const override {
        auto length = size(path);
        if (!length) fail_input(describe(path) + ": missing");
        return std::make_unique<FileRangeSource>(open_shared_fd(locate(path).string()), 0, *length,
                                                 describe(path));
    }

    std::string describe(const std::string& path) const override { return (root_ / path).string(); }

private:
    // Symlinks inside the layout must not lead out of it.
    std::filesystem::path locate(const std::string& path) const {
        auto full = std::filesystem::weakly_canonical(root_ / confined_path(path, root_.string()));
        auto rel = full.lexically_relative(root_);
        if (rel.empty() || *rel.begin() == "..")
            fail_input(describe(path) + ": resolves outside the layout");
        return full;
    }

    std::filesystem::path root_;
};

}  // namespace

std::unique_ptr<BlobStore> open_dir_store(const std::filesystem::path& root) {
    return std::make_unique<DirStore>(root);
}

}  // namespace cuvet::image
