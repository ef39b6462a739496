#include "image/storage/blob_spool.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>

#include "cuvet/core/error.hpp"
#include "cuvet/core/unique_fd.hpp"
#include "image/storage/sha256.hpp"

namespace cuvet::image {

namespace fs = std::filesystem;

// Writes what passes through to `<hex>.partN`; at the end, with the size and digest the manifest
// declares, renames it to `<hex>` and tells the spool. Anything less (a scan that stops early, an
// error) leaves no kept blob.
class BlobSpool::KeepingSource : public ByteSource {
public:
    KeepingSource(BlobSpool& spool, std::unique_ptr<ByteSource> inner, std::string digest,
                  std::uint64_t size)
        : spool_(spool), inner_(std::move(inner)), digest_(std::move(digest)), size_(size) {
        final_ = spool_.file_for(digest_);
        // One part file per reader: a manifest may list the same blob twice (empty layers do), and
        // two workers may read it at once.
        part_ = final_;
        part_ += ".part" + std::to_string(spool_.next_part_++);
        fd_ = UniqueFd(::open(part_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
    }
    ~KeepingSource() override {
        if (fd_) ::unlink(part_.c_str());
    }

    std::size_t read(char* buffer, std::size_t capacity) override {
        const std::size_t n = inner_->read(buffer, capacity);
        if (!fd_) return n;
        if (n == 0) {
            finish();
            return 0;
        }
        seen_ += n;
        hash_.update(std::string_view(buffer, n));
        for (std::size_t done = 0; done < n;) {
            const ssize_t w = ::write(fd_.get(), buffer + done, n - done);
            if (w <= 0) {  // a full disk costs the second read, never the verdict
                drop();
                return n;
            }
            done += static_cast<std::size_t>(w);
        }
        return n;
    }

private:
    void finish() {
        if (seen_ != size_ || hash_.hex_digest() != digest_) return drop();
        fd_.reset();
        std::error_code error;
        fs::rename(part_, final_, error);
        if (!error) spool_.kept(digest_);
    }
    void drop() {
        fd_.reset();
        ::unlink(part_.c_str());
    }

    BlobSpool& spool_;
    std::unique_ptr<ByteSource> inner_;
    std::string digest_;
    std::uint64_t size_;
    std::uint64_t seen_ = 0;
    Sha256 hash_;
    fs::path final_, part_;
    UniqueFd fd_;
};

BlobSpool::~BlobSpool() {
    if (dir_.empty()) return;
    std::error_code error;
    fs::remove_all(dir_, error);
}

fs::path BlobSpool::file_for(const std::string& digest) const {
    std::lock_guard lock(mutex_);
    if (dir_.empty()) {
        std::string pattern = (fs::temp_directory_path() / "cuvet-blobs-XXXXXX").string();
        if (::mkdtemp(pattern.data()) == nullptr)
            fail_io("cannot create a directory for fetched blobs under " +
                    fs::temp_directory_path().string());
        dir_ = pattern;
    }
    return dir_ / digest.substr(digest.find(':') + 1);  // the digest was validated: 64 hex digits
}

void BlobSpool::kept(const std::string& digest) {
    std::lock_guard lock(mutex_);
    kept_.insert(digest);
}

std::unique_ptr<ByteSource> BlobSpool::open_kept(const std::string& digest) const {
    {
        std::lock_guard lock(mutex_);
        if (kept_.count(digest) == 0) return nullptr;
    }
    const fs::path file = file_for(digest);
    std::error_code error;
    const auto size = fs::file_size(file, error);
    if (error) return nullptr;
    return std::make_unique<FileRangeSource>(open_shared_fd(file.string()), 0, size, file.string());
}

std::unique_ptr<ByteSource> BlobSpool::keep_while_reading(std::unique_ptr<ByteSource> source,
                                                          const std::string& digest,
                                                          std::uint64_t size) {
    return std::make_unique<KeepingSource>(*this, std::move(source), digest, size);
}

}  // namespace cuvet::image
