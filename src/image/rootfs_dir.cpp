// A plain root file system directory (an unpacked image, a chroot, a
// debootstrap tree). There are no layers: the directory is the merged view.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>

#include "byte_source.hpp"
#include "cuvet/core/error.hpp"
#include "cuvet/core/scan_limits.hpp"
#include "formats.hpp"

namespace cuvet::image {
namespace {

namespace fs = std::filesystem;

class RootfsDir : public Image {
public:
    explicit RootfsDir(fs::path root) : root_(std::move(root)) {
        info_.format = "rootfs";
        info_.path = root_.string();
        LayerInfo layer;
        layer.blob = root_.string();
        info_.layers.push_back(layer);
    }

    const ImageInfo& info() const override { return info_; }

    FileTree scan(const ScanOptions& options) const override {
        FileTree tree;
        std::map<std::pair<dev_t, ino_t>, std::string> first_link;  // hard links share an inode
        std::error_code error;
        fs::recursive_directory_iterator it(root_, fs::directory_options::none, error);
        if (error) fail_io(root_.string() + ": " + error.message());
        for (; it != fs::recursive_directory_iterator(); it.increment(error)) {
            if (error) fail_io(root_.string() + ": " + error.message());
            const fs::path& full = it->path();
            struct stat info {};
            if (::lstat(full.c_str(), &info) != 0) fail_io(full.string() + ": " + std::strerror(errno));
            FileEntry entry;
            entry.path = "/" + full.lexically_relative(root_).generic_string();
            entry.mode = info.st_mode & 07777;
            entry.size = static_cast<std::uint64_t>(info.st_size);
            std::shared_ptr<const std::string> content;
            if (S_ISDIR(info.st_mode)) {
                entry.type = FileType::directory;
                entry.size = 0;
            } else if (S_ISLNK(info.st_mode)) {
                entry.type = FileType::symlink;
                entry.link_target = fs::read_symlink(full, error).string();
            } else if (S_ISREG(info.st_mode)) {
                auto [slot, first] = first_link.try_emplace({info.st_dev, info.st_ino}, entry.path);
                if (!first && info.st_nlink > 1) {
                    entry.type = FileType::hardlink;
                    entry.link_target = slot->second;
                } else if (options.select && options.select(entry)) {
                    content = read_file(full, entry, options);
                }
            } else {
                entry.type = FileType::other;
            }
            tree.put(std::move(entry), std::move(content));
        }
        if (options.on_progress) options.on_progress(1, 1);
        return tree;
    }

private:
    static std::shared_ptr<const std::string> read_file(const fs::path& full, const FileEntry& entry,
                                                        const ScanOptions& options) {
        FileRangeSource source(open_shared_fd(full.string()), 0, entry.size, full.string());
        if (options.open_sink) {
            if (auto sink = options.open_sink(entry)) {
                std::string block(std::min<std::uint64_t>(entry.size, 1u << 20), '\0');
                try {
                    for (std::uint64_t have = 0; have < entry.size;) {
                        const std::size_t got = source.read(block.data(), std::min<std::uint64_t>(block.size(), entry.size - have));
                        sink->write(std::string_view(block.data(), got), have);
                        have += got;
                    }
                    sink->finish();
                } catch (const LimitExceeded& error) {
                    throw error.with_file(full.string());
                }
                return nullptr;
            }
        }
        // Held whole: a sparse file's size is what it costs here.
        if (entry.size > scan_limits().file_bytes)
            throw LimitExceeded(std::to_string(entry.size) + " bytes to hold in memory", "file-bytes")
                .with_file(full.string());
        auto bytes = std::make_shared<std::string>(entry.size, '\0');
        std::size_t have = 0;
        while (have < bytes->size()) have += source.read(bytes->data() + have, bytes->size() - have);
        if (options.on_content) {
            options.on_content(entry, *bytes);
            return nullptr;
        }
        return bytes;
    }

    fs::path root_;
    ImageInfo info_;
};

}  // namespace

std::unique_ptr<Image> open_rootfs_dir(const std::filesystem::path& root) {
    return std::make_unique<RootfsDir>(root);
}

}  // namespace cuvet::image
