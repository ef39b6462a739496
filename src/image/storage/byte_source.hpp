#pragma once
// Pull-style byte streams: a blob on disk (a file or a range of an outer tar),
// a digest check around it, and decompressors on top. Every stage streams.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "image/storage/sha256.hpp"

namespace cuvet::image {

class ByteSource {
public:
    virtual ~ByteSource() = default;
    // Fills up to `capacity` bytes; 0 means the end. Throws cuvet::Error on bad data.
    virtual std::size_t read(char* buffer, std::size_t capacity) = 0;
};

// A byte range [offset, offset + length) of a file, read with pread so that
// several workers can share one descriptor.
class FileRangeSource : public ByteSource {
public:
    FileRangeSource(std::shared_ptr<const int> fd, std::uint64_t offset, std::uint64_t length,
                    std::string name);
    std::size_t read(char* buffer, std::size_t capacity) override;

private:
    std::shared_ptr<const int> fd_;
    std::uint64_t offset_;
    std::uint64_t remaining_;
    std::string name_;
};

// Hashes what passes through and, at the end, compares with the expected
// digest: a mismatch is an input error naming the blob. SHA-256 costs about
// 40% of an ISA-L inflate, so it runs on a thread of its own, overlapping the
// decompression instead of adding to it.
class VerifyingSource : public ByteSource {
public:
    VerifyingSource(std::unique_ptr<ByteSource> inner, std::string expected_digest,
                    std::string blob_name);
    ~VerifyingSource() override;
    std::size_t read(char* buffer, std::size_t capacity) override;

private:
    struct Pipeline;
    std::unique_ptr<ByteSource> inner_;
    std::string expected_;
    std::string name_;
    std::unique_ptr<Pipeline> pipeline_;
    bool checked_ = false;
};

// Opens a file read-only; the shared descriptor closes with its last user.
// Anything but a regular file (a FIFO, a device, a directory) is refused
// without blocking: it is opened O_NONBLOCK and checked with fstat.
std::shared_ptr<const int> open_shared_fd(const std::string& path);
// Takes ownership of an open descriptor.
std::shared_ptr<const int> share_fd(int fd);

// Reads everything (for small JSON files); refuses more than `limit` bytes.
std::string read_all(ByteSource& source, std::uint64_t limit, const std::string& name);

}  // namespace cuvet::image
