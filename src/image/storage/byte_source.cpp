#include "image/storage/byte_source.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

#include "cuvet/core/error.hpp"

namespace cuvet::image {

std::shared_ptr<const int> share_fd(int fd) {
    return std::shared_ptr<const int>(new int(fd), [](const int* p) {
        ::close(*p);
        delete p;
    });
}

std::shared_ptr<const int> open_shared_fd(const std::string& path) {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever.
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) fail_io(path + ": " + std::strerror(errno));
    auto shared = share_fd(fd);
    struct stat info {};
    if (::fstat(fd, &info) != 0) fail_io(path + ": " + std::strerror(errno));
    if (!S_ISREG(info.st_mode))
        fail_input(path + ": " +
                   std::string(S_ISDIR(info.st_mode) ? "a directory" : "a FIFO, socket or device") +
                   ", not a regular file; refusing to read it");
    return shared;
}

FileRangeSource::FileRangeSource(std::shared_ptr<const int> fd, std::uint64_t offset,
                                 std::uint64_t length, std::string name)
    : fd_(std::move(fd)), offset_(offset), remaining_(length), name_(std::move(name)) {}

std::size_t FileRangeSource::read(char* buffer, std::size_t capacity) {
    if (remaining_ == 0) return 0;
    std::size_t want = capacity < remaining_ ? capacity : static_cast<std::size_t>(remaining_);
    ssize_t got;
    do {
        got = ::pread(*fd_, buffer, want, static_cast<off_t>(offset_));
    } while (got < 0 && errno == EINTR);
    if (got < 0) fail_io(name_ + ": read failed: " + std::strerror(errno));
    if (got == 0) fail_input(name_ + ": file ends before the size its index declares");
    offset_ += static_cast<std::uint64_t>(got);
    remaining_ -= static_cast<std::uint64_t>(got);
    return static_cast<std::size_t>(got);
}

// A bounded queue of chunks between the reader and the hashing thread; the
// bound keeps memory flat however far the reader runs ahead.
struct VerifyingSource::Pipeline {
    static constexpr std::size_t max_queued = 8;
    std::mutex mutex;
    std::condition_variable changed;
    std::deque<std::string> chunks;
    bool closed = false;
    Sha256 hash;
    std::thread worker{[this] { run(); }};

    void run() {
        while (true) {
            std::string chunk;
            {
                std::unique_lock lock(mutex);
                changed.wait(lock, [&] { return !chunks.empty() || closed; });
                if (chunks.empty()) return;
                chunk = std::move(chunks.front());
                chunks.pop_front();
            }
            changed.notify_all();
            hash.update(chunk);
        }
    }
    void push(std::string_view bytes) {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return chunks.size() < max_queued; });
        chunks.emplace_back(bytes);
        lock.unlock();
        changed.notify_all();
    }
    std::string finish() {
        close();
        return hash.hex_digest();
    }
    void close() {
        {
            std::lock_guard lock(mutex);
            closed = true;
        }
        changed.notify_all();
        if (worker.joinable()) worker.join();
    }
};

VerifyingSource::VerifyingSource(std::unique_ptr<ByteSource> inner, std::string expected_digest,
                                 std::string blob_name)
    : inner_(std::move(inner)),
      expected_(std::move(expected_digest)),
      name_(std::move(blob_name)),
      pipeline_(std::make_unique<Pipeline>()) {}

VerifyingSource::~VerifyingSource() { pipeline_->close(); }

std::size_t VerifyingSource::read(char* buffer, std::size_t capacity) {
    std::size_t got = inner_->read(buffer, capacity);
    if (got > 0) {
        pipeline_->push(std::string_view(buffer, got));
    } else if (!checked_) {
        checked_ = true;
        std::string actual = pipeline_->finish();
        if (actual != expected_)
            fail_input(name_ + ": digest mismatch: expected " + expected_ + ", content is " +
                       actual);
    }
    return got;
}

std::string read_all(ByteSource& source, std::uint64_t limit, const std::string& name) {
    std::string text;
    char buffer[64 * 1024];
    while (std::size_t got = source.read(buffer, sizeof buffer)) {
        if (text.size() + got > limit)
            fail_input(name + ": larger than " + std::to_string(limit) +
                       " bytes; refusing to read");
        text.append(buffer, got);
    }
    return text;
}

}  // namespace cuvet::image
