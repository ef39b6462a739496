#include "cuvet/sandbox/extract.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>

#include "cuvet/core/errno_text.hpp"
#include "cuvet/core/error.hpp"
#include "cuvet/core/unique_fd.hpp"

namespace cuvet::sandbox {
namespace {

namespace fs = std::filesystem;

// Splits "/a/b/c" into its components; rejects "", ".", ".." anywhere, so a
// path can never climb out of the root it is applied to.
bool split_path(const std::string& path, std::vector<std::string>& parts) {
    parts.clear();
    std::size_t at = 0;
    while (at < path.size()) {
        while (at < path.size() && path[at] == '/') ++at;
        if (at >= path.size()) break;
        const std::size_t end = path.find('/', at);
        std::string part = path.substr(at, end == std::string::npos ? std::string::npos : end - at);
        if (part == "." || part == "..") return false;
        parts.push_back(std::move(part));
        at = end == std::string::npos ? path.size() : end;
    }
    return true;
}

// Writes selected files' bytes into the staging directory as they stream by
// (several scan threads at once), keyed by (path, layer).
class Stager {
public:
    explicit Stager(int dir_fd) : dir_fd_(dir_fd) {}

    void put(const image::FileEntry& entry, std::string_view bytes) {
        std::string name;
        {
            std::lock_guard lock(mutex_);
            name = std::to_string(next_++);
            staged_[{entry.path, entry.layer}] = name;
        }
        UniqueFd fd(::openat(dir_fd_, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600));
        if (fd.get() < 0) fail_io("staging " + entry.path + ": " + errno_text());
        std::size_t done = 0;
        while (done < bytes.size()) {
            const ssize_t n = ::write(fd.get(), bytes.data() + done, bytes.size() - done);
            if (n <= 0) fail_io("writing " + entry.path + ": " + errno_text());
            done += static_cast<std::size_t>(n);
        }
    }

    // The reader re-places a layer's "lib/x" under a "/lib -> usr/lib" symlink
    // as "/usr/lib/x" in the merged tree, but it hands the bytes on under the
    // name the tar used. Re-key those by where they ended up.
    void relocate(const image::FileTree& tree) {
        std::map<std::pair<std::string, int>, std::string> moved;
        for (auto it = staged_.begin(); it != staged_.end();) {
            const auto& [path, layer] = it->first;
            const image::FileEntry* entry = tree.find(path);
            const std::size_t slash = path.rfind('/');
            if ((entry != nullptr && entry->layer == layer) || slash == std::string::npos ||
                slash == 0) {
                ++it;
                continue;
            }
            const image::Resolution parent = tree.resolve(path.substr(0, slash));
            if (parent.status != image::Resolution::Status::ok ||
                parent.path + path.substr(slash) == path) {
                ++it;
                continue;
            }
            const std::string placed = (parent.path == "/" ? "" : parent.path) + path.substr(slash);
            moved[{placed, layer}] = it->second;
            it = staged_.erase(it);
        }
        for (auto& [key, name] : moved) staged_.try_emplace(key, std::move(name));
    }

    // The staged file of the final version of `entry`, or "" when none.
    std::string take(const image::FileEntry& entry) {
        auto it = staged_.find({entry.path, entry.layer});
        if (it == staged_.end()) return {};
        std::string name = std::move(it->second);
        staged_.erase(it);
        return name;
    }

private:
    int dir_fd_;
    std::mutex mutex_;
    std::size_t next_ = 0;
    std::map<std::pair<std::string, int>, std::string> staged_;
};

// Safe mode bits: no set-id bits, since the tree is only there to run a probe.
mode_t safe_mode(std::uint32_t mode) { return static_cast<mode_t>(mode & 01777); }

class Extractor {
public:
    Extractor(int root_fd, int staging_fd, Stager& stager, ExtractStats& stats)
        : root_fd_(root_fd), staging_fd_(staging_fd), stager_(stager), stats_(stats) {}

    void place(const image::FileTree& tree, const image::FileEntry& entry) {
        std::vector<std::string> parts;
        if (!split_path(entry.path, parts)) return skip(entry, "path climbs out of the root");
        if (parts.empty()) return;  // the root itself
        const std::string name = parts.back();
        parts.pop_back();
        UniqueFd parent(open_parent(parts));
        if (parent.get() < 0)
            return skip(entry, "parent is not a directory inside the image (" + errno_text() + ")");
        switch (entry.type) {
            case image::FileType::directory:
                if (::mkdirat(parent.get(), name.c_str(), 0700) != 0 && errno != EEXIST)
                    return skip(entry, "mkdir: " + errno_text());
                directory_modes_.emplace_back(entry.path, safe_mode(entry.mode));
                ++stats_.directories;
                return;
            case image::FileType::regular:
                return place_file(parent.get(), name, entry);
            case image::FileType::symlink:
                if (::symlinkat(entry.link_target.c_str(), parent.get(), name.c_str()) != 0)
                    return skip(entry, "symlink: " + errno_text());
                ++stats_.symlinks;
                return;
            case image::FileType::hardlink:
                return place_hardlink(tree, parent.get(), name, entry);
            case image::FileType::other:
            case image::FileType::fifo:
            case image::FileType::device:
                return skip(entry, "not a file, directory or link");
        }
    }

    void apply_directory_modes() {
        for (const auto& [path, mode] : directory_modes_) {
            std::vector<std::string> parts;
            split_path(path, parts);
            UniqueFd dir(open_parent(parts));
            if (dir.get() >= 0) ::fchmod(dir.get(), mode);
        }
    }

private:
    int open_parent(const std::vector<std::string>& parts) {
        std::string relative;
        for (const std::string& part : parts) relative += (relative.empty() ? "" : "/") + part;
        return open_dir_nofollow(root_fd_, relative, false);
    }

    void place_file(int parent, const std::string& name, const image::FileEntry& entry) {
        const std::string staged = stager_.take(entry);
        if (staged.empty()) {
            // Zero-length files may never reach the content callback.
            UniqueFd fd(::openat(parent, name.c_str(),
                                 O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
            if (fd.get() < 0) return skip(entry, "create: " + errno_text());
            ::fchmod(fd.get(), safe_mode(entry.mode));
        } else {
            if (::renameat(staging_fd_, staged.c_str(), parent, name.c_str()) != 0)
                return skip(entry, "rename: " + errno_text());
            ::fchmodat(parent, name.c_str(), safe_mode(entry.mode), 0);
        }
        ++stats_.files;
        stats_.bytes += entry.size;
    }

    void place_hardlink(const image::FileTree& tree, int parent, const std::string& name,
                        const image::FileEntry& entry) {
        const image::FileEntry* data = tree.data_entry(entry);
        std::vector<std::string> parts;
        if (data == nullptr || data->type != image::FileType::regular ||
            !split_path(data->path, parts) || parts.empty())
            return skip(entry, "hard link to a missing file");
        const std::string target = parts.back();
        parts.pop_back();
        UniqueFd target_dir(open_parent(parts));
        // linkat without AT_SYMLINK_FOLLOW links the entry itself, never what it points to.
        if (target_dir.get() < 0 ||
            ::linkat(target_dir.get(), target.c_str(), parent, name.c_str(), 0) != 0)
            return skip(entry, "link: " + errno_text());
        ++stats_.hardlinks;
    }

    void skip(const image::FileEntry& entry, const std::string& why) {
        stats_.skipped.push_back(entry.path + ": " + why);
    }

    int root_fd_;
    int staging_fd_;
    Stager& stager_;
    ExtractStats& stats_;
    std::vector<std::pair<std::string, mode_t>> directory_modes_;
};

}  // namespace

int open_dir_nofollow(int root_fd, const std::string& relative, bool create) {
    std::vector<std::string> parts;
    if (!split_path(relative, parts)) {
        errno = EINVAL;
        return -1;
    }
    int fd = ::dup(root_fd);
    for (const std::string& part : parts) {
        if (fd < 0) return -1;
        if (create && ::mkdirat(fd, part.c_str(), 0755) != 0 && errno != EEXIST) {
            ::close(fd);
            return -1;
        }
        const int next =
            ::openat(fd, part.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        const int saved = errno;
        ::close(fd);
        errno = saved;
        fd = next;
    }
    return fd;
}

ExtractStats extract_rootfs(const image::Image& image, const fs::path& rootfs,
                            const fs::path& staging, image::FileTree* tree_out) {
    std::error_code error;
    fs::create_directories(rootfs, error);
    if (error) fail_io(rootfs.string() + ": " + error.message());
    fs::create_directories(staging, error);
    if (error) fail_io(staging.string() + ": " + error.message());
    // The staging copies go when extraction ends, refused or not: the caller owns only the rootfs.
    struct RemoveStaging {
        const fs::path& path;
        ~RemoveStaging() {
            std::error_code ignored;
            fs::remove_all(path, ignored);
        }
    } remove_staging{staging};
    UniqueFd root(::open(rootfs.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    UniqueFd stage(::open(staging.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (root.get() < 0 || stage.get() < 0) fail_io(rootfs.string() + ": " + errno_text());

    ExtractStats stats;
    Stager stager(stage.get());
    image::ScanOptions options;
    options.select = [](const image::FileEntry& entry) {
        return entry.type == image::FileType::regular;
    };
    options.on_content = [&](const image::FileEntry& entry, std::string_view bytes) {
        stager.put(entry, bytes);
    };
    const image::FileTree tree = image.scan(options);

    stager.relocate(tree);
    Extractor extractor(root.get(), stage.get(), stager, stats);
    // Entries are sorted by path, so a directory always precedes its content;
    // hard links come last because their data may sort after them.
    for (const auto& [path, entry] : tree.entries()) {
        if (entry.type != image::FileType::hardlink) extractor.place(tree, entry);
    }
    for (const auto& [path, entry] : tree.entries()) {
        if (entry.type == image::FileType::hardlink) extractor.place(tree, entry);
    }
    extractor.apply_directory_modes();
    if (tree_out != nullptr) *tree_out = tree;
    return stats;
}

}  // namespace cuvet::sandbox
