// A plain root file system directory (an unpacked image, a chroot, a
// debootstrap tree). There are no layers: the directory is the merged view.
//
// The walk holds a descriptor per directory level and opens every child
// relative to its parent with O_NOFOLLOW, so no component is ever resolved
// through a symlink: a file swapped for a link to /etc/shadow between the
// lstat and the open is refused, not followed (as extraction refuses it).
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>

#include "cuvet/core/error.hpp"
#include "cuvet/core/scan_limits.hpp"
#include "image/storage/byte_source.hpp"
#include "image/transports/formats.hpp"

namespace cuvet::image {
namespace {

namespace fs = std::filesystem;

// Deeper trees are refused rather than walked: one descriptor stays open per level.
constexpr int max_depth = 256;

class Descriptor {
public:
    explicit Descriptor(int fd) : fd_(fd) {}
    ~Descriptor() {
        if (fd_ >= 0) ::close(fd_);
    }
    Descriptor(const Descriptor&) = delete;
    Descriptor& operator=(const Descriptor&) = delete;
    int get() const { return fd_; }

private:
    int fd_;
};

bool is_permission_error(int error) { return error == EACCES || error == EPERM; }

class RootWalk {
public:
    RootWalk(const fs::path& root, const ScanOptions& options, bool allow_partial, FileTree& tree)
        : root_(root.string()), options_(options), allow_partial_(allow_partial), tree_(tree) {}

    void run() {
        Descriptor root(::open(root_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
        if (root.get() < 0) fail_io(root_ + ": " + std::strerror(errno));
        directory(root.get(), "", 0);
    }

private:
    std::string where(const std::string& path) const { return root_ + path; }

    // Without --allow-partial a path we cannot read ends the scan: what lies
    // below it could change the verdict, so a report without it would lie.
    void unreadable(const std::string& path) {
        if (!allow_partial_)
            fail_io(where(path) +
                    ": permission denied; the scan cannot see what lies there (run as a user who "
                    "can read the "
                    "whole tree; validate --allow-partial reports the scan as partial instead)");
        tree_.note_unreadable(path.empty() ? "/" : path);
    }

    [[noreturn]] void changed(const std::string& path, const std::string& how) const {
        fail_input(where(path) + ": changed while it was scanned (" + how +
                   "); refusing to follow it");
    }

    std::vector<std::string> names(int dir_fd, const std::string& path) {
        int copy = ::dup(dir_fd);
        if (copy < 0) fail_io(where(path) + ": " + std::strerror(errno));
        DIR* stream = ::fdopendir(copy);
        if (!stream) {
            ::close(copy);
            fail_io(where(path) + ": " + std::strerror(errno));
        }
        std::vector<std::string> out;
        errno = 0;
        while (const dirent* item = ::readdir(stream)) {
            if (std::strcmp(item->d_name, ".") != 0 && std::strcmp(item->d_name, "..") != 0)
                out.emplace_back(item->d_name);
            errno = 0;
        }
        const int error = errno;
        ::closedir(stream);
        if (error != 0) fail_io(where(path) + ": " + std::strerror(error));
        // Sorted, so that which hard link counts as the first is the same on every run.
        std::sort(out.begin(), out.end());
        return out;
    }

    void directory(int dir_fd, const std::string& path, int depth) {
        if (depth > max_depth)
            fail_input(where(path) + ": directories nested deeper than " +
                       std::to_string(max_depth) + " levels");
        for (const auto& name : names(dir_fd, path)) visit(dir_fd, path + "/" + name, name, depth);
    }

    void visit(int dir_fd, const std::string& path, const std::string& name, int depth) {
        struct stat info {};
        if (::fstatat(dir_fd, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) {
            if (errno == ENOENT) return;  // removed since the directory was listed
            if (is_permission_error(errno)) return unreadable(path);
            fail_io(where(path) + ": " + std::strerror(errno));
        }
        FileEntry entry;
        entry.path = path;
        entry.mode = info.st_mode & 07777;
        entry.uid = info.st_uid;
        entry.gid = info.st_gid;
        entry.size = static_cast<std::uint64_t>(info.st_size);
        std::shared_ptr<const std::string> content;
        if (S_ISDIR(info.st_mode)) {
            entry.type = FileType::directory;
            entry.size = 0;
            tree_.put(std::move(entry));
            Descriptor child(
                ::openat(dir_fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
            if (child.get() < 0) {
                if (is_permission_error(errno)) return unreadable(path);
                if (errno == ELOOP || errno == ENOTDIR) changed(path, "no longer a directory");
                fail_io(where(path) + ": " + std::strerror(errno));
            }
            directory(child.get(), path, depth + 1);
            return;
        }
        if (S_ISLNK(info.st_mode)) {
            entry.type = FileType::symlink;
            entry.link_target = link_target(dir_fd, name, path);
        } else if (S_ISREG(info.st_mode)) {
            auto [slot, first] = first_link_.try_emplace({info.st_dev, info.st_ino}, entry.path);
            if (!first && info.st_nlink > 1) {
                entry.type = FileType::hardlink;
                entry.link_target = slot->second;
            } else if (options_.select && options_.select(entry)) {
                content = read_file(dir_fd, name, info, entry);
            }
        } else if (S_ISFIFO(info.st_mode)) {
            entry.type = FileType::fifo;
        } else if (S_ISCHR(info.st_mode) || S_ISBLK(info.st_mode)) {
            entry.type = FileType::device;
        } else {
            entry.type = FileType::other;
        }
        tree_.put(std::move(entry), std::move(content));
    }

    std::string link_target(int dir_fd, const std::string& name, const std::string& path) const {
        std::string target(4096, '\0');
        ssize_t length = ::readlinkat(dir_fd, name.c_str(), target.data(), target.size());
        if (length < 0) fail_io(where(path) + ": " + std::strerror(errno));
        target.resize(static_cast<std::size_t>(length));
        return target;
    }

    // Opened beneath its directory without following a link, then checked to
    // be the very file the lstat saw.
    std::shared_ptr<const std::string> read_file(int dir_fd, const std::string& name,
                                                 const struct stat& seen, FileEntry& entry) {
        int fd = ::openat(dir_fd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0) {
            if (errno == ELOOP) changed(entry.path, "now a symlink");
            if (is_permission_error(errno)) {
                unreadable(entry.path);
                return nullptr;
            }
            if (errno == ENOENT) changed(entry.path, "removed");
            fail_io(where(entry.path) + ": " + std::strerror(errno));
        }
        auto shared = share_fd(fd);
        struct stat now {};
        if (::fstat(fd, &now) != 0) fail_io(where(entry.path) + ": " + std::strerror(errno));
        if (!S_ISREG(now.st_mode) || now.st_dev != seen.st_dev || now.st_ino != seen.st_ino)
            changed(entry.path, "replaced by another file");
        entry.size = static_cast<std::uint64_t>(now.st_size);
        return read_content(FileRangeSource(shared, 0, entry.size, where(entry.path)), entry);
    }

    std::shared_ptr<const std::string> read_content(FileRangeSource source,
                                                    const FileEntry& entry) {
        if (options_.open_sink) {
            if (auto sink = options_.open_sink(entry)) {
                std::string block(std::min<std::uint64_t>(entry.size, 1u << 20), '\0');
                try {
                    for (std::uint64_t have = 0; have < entry.size;) {
                        const std::size_t got = source.read(
                            block.data(), std::min<std::uint64_t>(block.size(), entry.size - have));
                        sink->write(std::string_view(block.data(), got), have);
                        have += got;
                    }
                    sink->finish();
                } catch (const LimitExceeded& error) {
                    throw error.with_file(where(entry.path));
                }
                return nullptr;
            }
        }
        // Held whole: a sparse file's size is what it costs here.
        if (entry.size > scan_limits().file_bytes)
            throw LimitExceeded(std::to_string(entry.size) + " bytes to hold in memory",
                                "file-bytes")
                .with_file(where(entry.path));
        auto bytes = std::make_shared<std::string>(entry.size, '\0');
        std::size_t have = 0;
        while (have < bytes->size())
            have += source.read(bytes->data() + have, bytes->size() - have);
        if (options_.on_content) {
            options_.on_content(entry, *bytes);
            return nullptr;
        }
        return bytes;
    }

    const std::string root_;
    const ScanOptions& options_;
    const bool allow_partial_;
    FileTree& tree_;
    std::map<std::pair<dev_t, ino_t>, std::string> first_link_;  // hard links share an inode
};

class RootfsDir : public Image {
public:
    RootfsDir(fs::path root, bool allow_partial)
        : root_(std::move(root)), allow_partial_(allow_partial) {
        info_.format = "rootfs";
        info_.path = root_.string();
        LayerInfo layer;
        layer.blob = root_.string();
        info_.layers.push_back(layer);
    }

    const ImageInfo& info() const override { return info_; }

    FileTree scan(const ScanOptions& options) const override {
        FileTree tree;
        RootWalk(root_, options, allow_partial_, tree).run();
        if (options.on_progress) options.on_progress(1, 1);
        return tree;
    }

private:
    fs::path root_;
    bool allow_partial_;
    ImageInfo info_;
};

}  // namespace

bool looks_like_root_fs(const std::filesystem::path& dir) {
    // The top-level directories that hold an OS's programs, libraries and
    // configuration (FHS); a directory with none of them is not an image.
    for (const char* name : {"usr", "etc", "bin", "sbin", "lib", "lib32", "lib64", "opt"}) {
        struct stat info {};
        if (::lstat((dir / name).c_str(), &info) == 0 &&
            (S_ISDIR(info.st_mode) || S_ISLNK(info.st_mode)))
            return true;
    }
    return false;
}

std::unique_ptr<Image> open_rootfs_dir(const std::filesystem::path& root,
                                       const OpenOptions& options) {
    return std::make_unique<RootfsDir>(root, options.allow_partial);
}

}  // namespace cuvet::image
