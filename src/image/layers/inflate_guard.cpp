#include "image/layers/inflate_guard.hpp"

#include "cuvet/core/scan_limits.hpp"

namespace cuvet::image {
namespace {

class CountingSource : public ByteSource {
public:
    CountingSource(std::unique_ptr<ByteSource> inner, std::shared_ptr<std::uint64_t> count)
        : inner_(std::move(inner)), count_(std::move(count)) {}
    std::size_t read(char* buffer, std::size_t capacity) override {
        const std::size_t got = inner_->read(buffer, capacity);
        *count_ += got;
        return got;
    }

private:
    std::unique_ptr<ByteSource> inner_;
    std::shared_ptr<std::uint64_t> count_;
};

class InflateGuard : public ByteSource {
public:
    InflateGuard(std::unique_ptr<ByteSource> inner, std::shared_ptr<const std::uint64_t> compressed,
                 std::string name, std::uint64_t floor)
        : inner_(std::move(inner)),
          compressed_(std::move(compressed)),
          name_(std::move(name)),
          floor_(floor) {}
    std::size_t read(char* buffer, std::size_t capacity) override {
        const std::size_t got = inner_->read(buffer, capacity);
        inflated_ += got;
        const std::uint64_t ratio = scan_limits().inflate_ratio;
        const std::uint64_t in = *compressed_ == 0 ? 1 : *compressed_;
        if (inflated_ > floor_ && inflated_ / in > ratio)
            throw LimitExceeded("inflates to more than " + std::to_string(ratio) +
                                    " times its compressed size (" + std::to_string(in) +
                                    " bytes read, " + std::to_string(inflated_) + " inflated)",
                                "inflate-ratio")
                .with_file(name_);
        return got;
    }

private:
    std::unique_ptr<ByteSource> inner_;
    std::shared_ptr<const std::uint64_t> compressed_;
    std::string name_;
    std::uint64_t floor_;
    std::uint64_t inflated_ = 0;
};

}  // namespace

std::unique_ptr<ByteSource> counting_source(std::unique_ptr<ByteSource> inner,
                                            std::shared_ptr<std::uint64_t> count) {
    return std::make_unique<CountingSource>(std::move(inner), std::move(count));
}

std::unique_ptr<ByteSource> inflate_guard(std::unique_ptr<ByteSource> inflated,
                                          std::shared_ptr<const std::uint64_t> compressed,
                                          std::string name, std::uint64_t floor) {
    return std::make_unique<InflateGuard>(std::move(inflated), std::move(compressed),
                                          std::move(name), floor);
}

}  // namespace cuvet::image
