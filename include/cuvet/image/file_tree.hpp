#pragma once
// The merged file system of an image: what a container really sees after every
// layer and whiteout has been applied. Paths are absolute and normalised
// ("/usr/lib/x86_64-linux-gnu/libcudnn.so.9"); links stay links and are
// resolved on demand, always inside the image.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace cuvet::image {

// fifo and device are told apart from other (a socket a rootfs holds): ld.so's
// open() blocks on a FIFO and fails or reads no ELF header on a device node.
enum class FileType { regular, directory, symlink, hardlink, other, fifo, device };

std::string_view to_string(FileType type);

struct FileEntry {
    std::string path;  // absolute, normalised
    FileType type = FileType::regular;
    std::uint32_t mode = 0;  // permission bits (07777)
    std::uint64_t size = 0;
    std::string link_target;  // symlink: as written; hardlink: absolute path of the data
    int layer = 0;            // index of the layer that wrote it last (0 for a rootfs dir)
    // Owner as the tar header (or the rootfs) gives it: the runtime chowns to these ids, and
    // the kernel picks the owner, group or other bits by them.
    std::uint32_t uid = 0;
    std::uint32_t gid = 0;
};

struct Resolution {
    enum class Status { ok, missing, loop, not_a_directory };
    Status status = Status::missing;
    std::string path;                  // the final path (ok), or how far resolution got
    const FileEntry* entry = nullptr;  // the entry at `path` (ok only)
};

class FileTree {
public:
    const FileEntry* find(std::string_view path) const;  // exact path, links not followed
    // Follows symlinks in every component (absolute targets start at the image
    // root, ".." stops at the root, more than 40 links is a loop, as in Linux).
    Resolution resolve(std::string_view path) const;
    // A hard link shares its data with the entry it names; this returns that entry.
    const FileEntry* data_entry(const FileEntry& entry) const;
    // Bytes kept during the scan for files the caller selected (see ScanOptions).
    std::shared_ptr<const std::string> content(std::string_view path) const;

    const std::map<std::string, FileEntry, std::less<>>& entries() const { return entries_; }
    std::size_t size() const { return entries_.size(); }

    // Mutations used while layers are applied.
    void put(FileEntry entry, std::shared_ptr<const std::string> content = nullptr);
    void remove_tree(std::string_view path);      // the path and everything below it
    void remove_children(std::string_view path);  // everything below it (opaque directory)
    // A hard link's chmod and chown: the runtime applies its header to the shared inode.
    void set_mode_and_owner(std::string_view path, const FileEntry& link_header);

    // Paths a rootfs scan could not read (--allow-partial): the tree lacks
    // whatever lies below them, so no verdict on it is complete.
    const std::vector<std::string>& unreadable() const { return unreadable_; }
    void note_unreadable(std::string path) { unreadable_.push_back(std::move(path)); }

private:
    std::map<std::string, FileEntry, std::less<>> entries_;
    std::map<std::string, std::shared_ptr<const std::string>, std::less<>> contents_;
    std::vector<std::string> unreadable_;
};

// Normalises a path inside the image: "./a//b/." -> "/a/b". ".." that would
// climb above the root yields nullopt-like empty string.
std::string normalize_path(std::string_view path, bool clamp_at_root);

}  // namespace cuvet::image
