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

namespace cuvet::image {
namespace {

constexpr std::size_t block = 512;

struct TarMember {
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
    std::string symlink;  // non-empty for symlink members (docker save dedupes layers so)
};

std::uint64_t parse_number(const char* field, std::size_t width, bool* ok) {
    // GNU base-256: the high bit of the first byte marks a binary big-endian number.
    if (static_cast<unsigned char>(field[0]) & 0x80) {
        std::uint64_t value = 0;
        for (std::size_t i = 1; i < width; ++i) {
            if (value >> 56) {
                *ok = false;
                return 0;
            }
            value = (value << 8) | static_cast<unsigned char>(field[i]);
        }
        return value;
    }
    std::uint64_t value = 0;
    std::size_t i = 0;
    while (i < width && (field[i] == ' ' || field[i] == '\0')) ++i;
    for (; i < width && field[i] >= '0' && field[i] <= '7'; ++i)
        value = value * 8 + (field[i] - '0');
    for (; i < width; ++i)
        if (field[i] != ' ' && field[i] != '\0') *ok = false;
    return value;
}

bool checksum_ok(const char* header) {
    bool ok = true;
    std::uint64_t stored = parse_number(header + 148, 8, &ok);
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < block; ++i)
        sum += (i >= 148 && i < 156) ? ' ' : static_cast<unsigned char>(header[i]);
    return ok && stored == sum;
}

std::string field_string(const char* field, std::size_t width) {
    return std::string(field, strnlen(field, width));
}

// pax records: "<len> <key>=<value>\n"
void apply_pax(const std::string& data, std::string* path, std::string* link,
               std::optional<std::uint64_t>* size) {
    std::size_t pos = 0;
    while (pos < data.size()) {
        std::size_t space = data.find(' ', pos);
        if (space == std::string::npos) return;
        std::size_t length = std::strtoull(data.c_str() + pos, nullptr, 10);
        if (length == 0 || pos + length > data.size()) return;
        std::string record = data.substr(space + 1, pos + length - space - 2);
        std::size_t eq = record.find('=');
        if (eq != std::string::npos) {
            std::string key = record.substr(0, eq), value = record.substr(eq + 1);
            if (key == "path")
                *path = value;
            else if (key == "linkpath")
                *link = value;
            else if (key == "size")
                *size = std::strtoull(value.c_str(), nullptr, 10);
        }
        pos += length;
    }
}

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

// GCC 12 reports pax_size's payload as maybe uninitialized when it inlines
// std::optional here (GCC bug 80635), a false alarm that -Werror would turn fatal.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
    void index() {
        if (file_size_ == 0) fail_input(name_ + ": empty file");
        std::uint64_t offset = 0;
        std::string long_name, long_link;
        std::string pax_path, pax_link;
        std::optional<std::uint64_t> pax_size;
        char header[block];
        while (offset + block <= file_size_) {
            read_exact(header, block, offset);
            if (std::all_of(header, header + block, [](char c) { return c == 0; })) return;
            if (!checksum_ok(header))
                fail_input(name_ + ": corrupt tar header at offset " + std::to_string(offset) +
                           (offset == 0 ? " (not a tar archive?)" : ""));
            bool ok = true;
            std::uint64_t size = parse_number(header + 124, 12, &ok);
            if (pax_size) size = *pax_size;
            if (!ok)
                fail_input(name_ + ": bad size field in tar header at offset " +
                           std::to_string(offset));
            std::uint64_t data = offset + block;
            if (size > file_size_ - data)
                fail_input(name_ + ": tar member at offset " + std::to_string(offset) + " claims " +
                           std::to_string(size) + " bytes, more than the archive holds");
            char type = header[156];
            std::string name = field_string(header, 100);
            std::string prefix = field_string(header + 345, 155);
            if (std::memcmp(header + 257, "ustar", 5) == 0 && !prefix.empty())
                name = prefix + "/" + name;
            std::string link = field_string(header + 157, 100);
            if (type == 'L' || type == 'K' || type == 'x') {
                std::string payload(
                    static_cast<std::size_t>(std::min<std::uint64_t>(size, 1 << 20)), '\0');
                read_exact(payload.data(), payload.size(), data);
                if (type == 'L')
                    long_name = payload.c_str();
                else if (type == 'K')
                    long_link = payload.c_str();
                else
                    apply_pax(payload, &pax_path, &pax_link, &pax_size);
            } else {
                if (!long_name.empty()) name = long_name;
                if (!pax_path.empty()) name = pax_path;
                if (!long_link.empty()) link = long_link;
                if (!pax_link.empty()) link = pax_link;
                record(name, type, data, size, link);
                long_name.clear(), long_link.clear(), pax_path.clear(), pax_link.clear();
                pax_size.reset();
            }
            offset = data + (size + block - 1) / block * block;
        }
        if (offset != file_size_ && members_.empty()) fail_input(name_ + ": not a tar archive");
    }
#pragma GCC diagnostic pop

    void record(const std::string& raw_name, char type, std::uint64_t data, std::uint64_t size,
                const std::string& link) {
        std::string normal = normalize_path(raw_name, false);
        if (normal.empty() || normal == "/") return;  // "./" itself, or names we never look up
        std::string key = normal.substr(1);
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
    std::set<std::string> specials_;  // FIFOs and devices: named, never readable
};

}  // namespace

std::unique_ptr<BlobStore> open_tar_store(const std::filesystem::path& archive) {
    return std::make_unique<TarStore>(archive);
}

}  // namespace cuvet::image
