#pragma once
// A file descriptor closed when its owner goes: the extractor, the sandbox and the
// cache all open files relative to directory descriptors and must not leak one on
// the error paths hostile input takes.
#include <unistd.h>

#include <utility>

namespace cuvet {

class UniqueFd {
public:
    explicit UniqueFd(int fd = -1) : fd_(fd) {}
    ~UniqueFd() { close_now(); }
    UniqueFd(UniqueFd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
    UniqueFd& operator=(UniqueFd&& other) noexcept {
        if (this != &other) reset(std::exchange(other.fd_, -1));
        return *this;
    }
    UniqueFd(const UniqueFd&) = delete;
    UniqueFd& operator=(const UniqueFd&) = delete;

    int get() const { return fd_; }
    explicit operator bool() const { return fd_ >= 0; }
    void reset(int fd = -1) {
        close_now();
        fd_ = fd;
    }

private:
    void close_now() {
        if (fd_ >= 0) ::close(fd_);
    }
    int fd_;
};

}  // namespace cuvet
