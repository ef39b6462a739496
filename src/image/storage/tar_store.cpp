// BlobStore over an uncompressed outer tar (docker save, OCI archive). The
// archive is indexed once by walking its 512-byte headers and seeking past the
// data, so opening a blob later is a pread of a known range: no extraction,
// no second pass, and layers can be read by several workers at once.
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <set>

#include "cuvet/core/error.hpp"
#include "cuvet/image/file_tree.hpp"
#include "image/storage/blob_store.hpp"
#include "image/storage/go_tar.hpp"

namespace cuvet::image {
namespace {

constexpr std::size_t block = 512;

struct TarMember {
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
    std::string symlink;  // non-empty for symlink members (docker save dedupes layers so)
};

class TarStore : public BlobStore {
public:
    explicit TarStore(const std::filesystem::path& archive)
        : name_(archive.string()), fd_(open_shared_fd(name_)) {
        struct stat info {};
        if (::fstat(*fd_, &info) != 0) fail_io(name_ + ": " + std::strerror(errno));
        file_size_ = static_cast<std::uint64_t>(info.st_size);
        index();
    }

    std::optional<std::uint64_t> size(const std::string& path) const override {
        const TarMember* member = lookup(path);
        if (!member) return std::nullopt;
        return member->size;
    }

    std::unique_ptr<ByteSource> open(const std::string& path) const override {
        const TarMember* member = lookup(path);
        if (!member) fail_input(describe(path) + ": missing from the archive");
        return std::make_unique<FileRangeSource>(fd_, member->offset, member->size, describe(path));
    }

    std::string describe(const std::string& path) const override { return name_ + ":" + path; }

private:
    const TarMember* lookup(const std::string& path) const {
        std::string key = confined_path(path, name_);
        for (int hops = 0; hops < 40; ++hops) {
            // docker load keeps the last copy, podman and skopeo read the first.
            if (duplicates_.count(key))
                fail_input(describe(path) +
                           ": the archive holds it more than once (docker load reads the last "
                           "copy, podman and skopeo the first); refusing an ambiguous image");
            auto it = members_.find(key);
            if (it == members_.end()) {
                if (directories_.count(key))
                    fail_input(describe(path) + ": is a directory, expected a file");
                if (specials_.count(key))
                    fail_input(describe(path) +
                               ": a FIFO or device entry, not a regular file; refusing to read it");
                return nullptr;
            }
            if (it->second.symlink.empty()) return &it->second;
            auto slash = key.rfind('/');
            std::string base = slash == std::string::npos ? "" : key.substr(0, slash);
            key = confined_path(base.empty() ? it->second.symlink : base + "/" + it->second.symlink,
                                describe(path));
        }
        fail_input(describe(path) + ": symlink loop inside the archive");
    }

    void read_exact(char* buffer, std::size_t length, std::uint64_t offset) const {
        FileRangeSource source(fd_, offset, length, name_);
        std::size_t have = 0;
        while (have < length) have += source.read(buffer + have, length - have);
    }

    // Go's archive/tar is what docker load, podman and skopeo read this archive with: its
    // header rules (go_tar.hpp) decide every name, so cuvet reads the manifest they read.
    void index() {
        if (file_size_ == 0) fail_input(name_ + ": empty file");
        std::uint64_t offset = 0;
        go_tar::PendingHeaders pending;
        char header[block];
        while (offset + block <= file_size_) {
            read_exact(header, block, offset);
            go_tar::Block parsed = go_tar::read_block(header);
            if (parsed.zero) {
                // Go ends at two zero blocks; a zero block followed by a header is ErrHeader.
                if (offset + 2 * block <= file_size_) {
                    read_exact(header, block, offset + block);
                    if (!go_tar::read_block(header).zero)
                        fail_input(name_ + ": a header after an end-of-archive block at offset " +
                                   std::to_string(offset + block) +
                                   " (docker load and podman refuse the archive)");
                }
                return;
            }
            if (!parsed.error.empty())
                fail_input(name_ + ": " + parsed.error + " at offset " + std::to_string(offset) +
                           (offset == 0 ? " (not a tar archive?)" : ""));
            go_tar::Header& entry = parsed.header;
            const char type = entry.typeflag;
            const bool extended = go_tar::extended(type);
            if (!extended) {
                if (auto error = pending.apply_to(entry); !error.empty())
                    fail_input(name_ + ": " + error + " at offset " + std::to_string(offset));
            }
            if (entry.size < 0 && !go_tar::header_only(type))
                fail_input(name_ + ": a negative size at offset " + std::to_string(offset));
            const std::uint64_t size =
                go_tar::header_only(type) ? 0 : static_cast<std::uint64_t>(entry.size);
            const std::uint64_t data = offset + block;
            if (size > file_size_ - data)
                fail_input(name_ + ": tar member at offset " + std::to_string(offset) + " claims " +
                           std::to_string(size) + " bytes, more than the archive holds");
            if (extended) {
                if (size > go_tar::max_special_file)
                    fail_input(name_ + ": an extended header of " + std::to_string(size) +
                               " bytes at offset " + std::to_string(offset) +
                               " (Go's archive/tar refuses more than 1 MiB)");
                std::string payload(static_cast<std::size_t>(size), '\0');
                read_exact(payload.data(), payload.size(), data);
                const std::string error = pending.add(type, payload);
                if (!error.empty())
                    fail_input(name_ + ": " + error + " at offset " + std::to_string(offset));
            } else {
                record(entry.name, type, data, size, entry.linkname);
            }
            offset = data + go_tar::padded(size);
        }
        if (offset != file_size_ && members_.empty()) fail_input(name_ + ": not a tar archive");
    }

    void record(const std::string& raw_name, char type, std::uint64_t data, std::uint64_t size,
                const std::string& link) {
        std::string normal = normalize_path(raw_name, false);
        if (normal.empty() || normal == "/") return;  // "./" itself, or names we never look up
        std::string key = normal.substr(1);
        if (members_.count(key)) duplicates_.insert(key);
        if (type == '5') {
            directories_.insert(key);
        } else if (type == '3' || type == '4' || type == '6') {
            specials_.insert(key);
        } else if (type == '0' || type == '\0' || type == '7') {
            members_[key] = TarMember{data, size, {}};
        } else if (type == '2') {
            members_[key] = TarMember{0, 0, link};
        } else if (type == '1') {
            std::string target = normalize_path(link, false);
            auto it = target.empty() ? members_.end() : members_.find(target.substr(1));
            if (it != members_.end()) members_[key] = it->second;
        }
    }

    std::string name_;
    std::shared_ptr<const int> fd_;
    std::uint64_t file_size_ = 0;
    std::map<std::string, TarMember> members_;
    std::set<std::string> directories_;
    std::set<std::string> specials_;    // FIFOs and devices: named, never readable
    std::set<std::string> duplicates_;  // named by more than one member
};

}  // namespace

std::unique_ptr<BlobStore> open_tar_store(const std::filesystem::path& archive) {
    return std::make_unique<TarStore>(archive);
}

}  // namespace cuvet::image
