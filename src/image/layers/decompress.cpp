#include "image/layers/decompress.hpp"

#include <isa-l/igzip_lib.h>
#include <zstd.h>

#include <cstring>
#include <vector>

#include "cuvet/core/error.hpp"

namespace cuvet::image {

std::string to_string(Compression compression) {
    switch (compression) {
        case Compression::none:
            return "none";
        case Compression::gzip:
            return "gzip";
        case Compression::zstd:
            return "zstd";
    }
    return "none";
}

namespace {

constexpr std::size_t input_chunk = 1 << 20;

// Serves bytes already read for sniffing, then the rest of the inner stream.
class PrefixedSource : public ByteSource {
public:
    PrefixedSource(std::string prefix, std::unique_ptr<ByteSource> inner)
        : prefix_(std::move(prefix)), inner_(std::move(inner)) {}
    std::size_t read(char* buffer, std::size_t capacity) override {
        if (offset_ < prefix_.size()) {
            std::size_t n = std::min(capacity, prefix_.size() - offset_);
            std::memcpy(buffer, prefix_.data() + offset_, n);
            offset_ += n;
            return n;
        }
        return inner_->read(buffer, capacity);
    }

private:
    std::string prefix_;
    std::size_t offset_ = 0;
    std::unique_ptr<ByteSource> inner_;
};

// Drains what is left so that a digest check below us sees every byte.
void drain(ByteSource& source) {
    std::vector<char> sink(64 * 1024);
    while (source.read(sink.data(), sink.size()) > 0) {
    }
}

// ISA-L's inflate is about 3x faster than zlib on these layers (issue 2).
class GzipSource : public ByteSource {
public:
    GzipSource(std::unique_ptr<ByteSource> inner, std::string name)
        : inner_(std::move(inner)), name_(std::move(name)), input_(input_chunk) {
        isal_inflate_init(&state_);
        state_.crc_flag = ISAL_GZIP;
    }

    std::size_t read(char* buffer, std::size_t capacity) override {
        while (!finished_) {
            if (state_.block_state == ISAL_BLOCK_FINISH && !start_next_member()) break;
            if (state_.avail_in == 0 && !refill()) fail_input("truncated gzip stream in " + name_);
            state_.next_out = reinterpret_cast<std::uint8_t*>(buffer);
            state_.avail_out =
                static_cast<std::uint32_t>(std::min<std::size_t>(capacity, 1u << 30));
            int status = isal_inflate(&state_);
            if (status < 0)
                fail_input("corrupt gzip data in " + name_ + " (ISA-L status " +
                           std::to_string(status) + ")");
            std::size_t produced = capacity - state_.avail_out;
            if (produced > 0) return produced;
        }
        return 0;
    }

private:
    bool refill() {
        std::size_t got = inner_->read(reinterpret_cast<char*>(input_.data()), input_.size());
        state_.next_in = input_.data();
        state_.avail_in = static_cast<std::uint32_t>(got);
        return got > 0;
    }

    // A gzip file may hold several members back to back (pigz, concatenation).
    bool start_next_member() {
        if (state_.avail_in == 0 && !refill()) return finish();
        if (state_.avail_in >= 2 && state_.next_in[0] == 0x1f && state_.next_in[1] == 0x8b) {
            std::uint8_t* next = state_.next_in;
            std::uint32_t avail = state_.avail_in;
            isal_inflate_reset(&state_);
            state_.crc_flag = ISAL_GZIP;
            state_.next_in = next;
            state_.avail_in = avail;
            return true;
        }
        // Trailing padding after the last member is ignored, as gzip -d does.
        return finish();
    }

    bool finish() {
        drain(*inner_);
        finished_ = true;
        return false;
    }

    std::unique_ptr<ByteSource> inner_;
    std::string name_;
    std::vector<std::uint8_t> input_;
    inflate_state state_{};
    bool finished_ = false;
};

class ZstdSource : public ByteSource {
public:
    ZstdSource(std::unique_ptr<ByteSource> inner, std::string name)
        : inner_(std::move(inner)),
          name_(std::move(name)),
          input_(input_chunk),
          stream_(ZSTD_createDStream()) {
        if (!stream_) throw Error(ErrorKind::internal, "zstd: cannot create a decoder");
    }
    ~ZstdSource() override { ZSTD_freeDStream(stream_); }

    std::size_t read(char* buffer, std::size_t capacity) override {
        while (true) {
            if (in_.pos == in_.size) {
                std::size_t got = inner_->read(input_.data(), input_.size());
                if (got == 0) {
                    if (!frame_complete_) fail_input("truncated zstd stream in " + name_);
                    return 0;
                }
                in_ = {input_.data(), got, 0};
            }
            ZSTD_outBuffer out{buffer, capacity, 0};
            std::size_t status = ZSTD_decompressStream(stream_, &out, &in_);
            if (ZSTD_isError(status))
                fail_input("corrupt zstd data in " + name_ + ": " + ZSTD_getErrorName(status));
            frame_complete_ = status == 0;
            if (out.pos > 0) return out.pos;
        }
    }

private:
    std::unique_ptr<ByteSource> inner_;
    std::string name_;
    std::vector<char> input_;
    ZSTD_DStream* stream_;
    ZSTD_inBuffer in_{nullptr, 0, 0};
    bool frame_complete_ = false;
};

}  // namespace

DecompressedStream open_decompressed(std::unique_ptr<ByteSource> raw, const std::string& name) {
    std::string head(8, '\0');
    std::size_t have = 0;
    while (have < head.size()) {
        std::size_t got = raw->read(head.data() + have, head.size() - have);
        if (got == 0) break;
        have += got;
    }
    head.resize(have);
    auto starts_with = [&](std::string_view magic) {
        return head.size() >= magic.size() &&
               std::string_view(head).substr(0, magic.size()) == magic;
    };
    DecompressedStream result;
    auto prefixed = std::make_unique<PrefixedSource>(head, std::move(raw));
    if (starts_with("\x1f\x8b")) {
        result.compression = Compression::gzip;
        result.source = std::make_unique<GzipSource>(std::move(prefixed), name);
    } else if (starts_with("\x28\xb5\x2f\xfd")) {
        result.compression = Compression::zstd;
        result.source = std::make_unique<ZstdSource>(std::move(prefixed), name);
    } else if (starts_with("BZh") || starts_with("\xfd"
                                                 "7zXZ")) {
        fail_input(name + ": bzip2/xz compressed layers are not supported (only none, gzip, zstd)");
    } else {
        result.source = std::move(prefixed);
    }
    return result;
}

}  // namespace cuvet::image
