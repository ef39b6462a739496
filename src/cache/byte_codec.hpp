#pragma once
// The cache's wire format: LEB128 varints and length-prefixed strings. The
// reader is bounds-checked and throws DecodeError on anything short or
// oversized, so a damaged entry can only ever be a miss.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace cuvet::cache::detail {

struct DecodeError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class Writer {
public:
    void u64(std::uint64_t value) {
        while (value >= 0x80) {
            out_.push_back(static_cast<char>((value & 0x7f) | 0x80));
            value >>= 7;
        }
        out_.push_back(static_cast<char>(value));
    }
    void str(std::string_view text) {
        u64(text.size());
        out_.append(text);
    }
    void strings(const std::vector<std::string>& list) {
        u64(list.size());
        for (const auto& s : list) str(s);
    }
    void ints(const std::vector<int>& list) {
        u64(list.size());
        for (int i : list) u64(static_cast<std::uint32_t>(i));
    }
    void raw(std::string_view bytes) { out_.append(bytes); }
    std::string& bytes() { return out_; }

private:
    std::string out_;
};

class Reader {
public:
    explicit Reader(std::string_view in) : in_(in) {}

    std::uint64_t u64() {
        std::uint64_t value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (at_ >= in_.size()) throw DecodeError("truncated varint");
            auto byte = static_cast<unsigned char>(in_[at_++]);
            value |= std::uint64_t(byte & 0x7f) << shift;
            if ((byte & 0x80) == 0) return value;
        }
        throw DecodeError("varint too long");
    }
    // A count of items, each at least one byte: never more than the bytes left.
    std::size_t count() {
        std::uint64_t n = u64();
        if (n > in_.size() - at_) throw DecodeError("count beyond the end");
        return static_cast<std::size_t>(n);
    }
    std::string_view view() {
        std::size_t n = count();
        std::string_view s = in_.substr(at_, n);
        at_ += n;
        return s;
    }
    std::string str() { return std::string(view()); }
    std::vector<std::string> strings() {
        std::vector<std::string> list(count());
        for (auto& s : list) s = str();
        return list;
    }
    std::vector<int> ints() {
        std::vector<int> list(count());
        for (auto& i : list) i = static_cast<int>(static_cast<std::uint32_t>(u64()));
        return list;
    }
    bool done() const { return at_ == in_.size(); }

private:
    std::string_view in_;
    std::size_t at_ = 0;
};

}  // namespace cuvet::cache::detail
