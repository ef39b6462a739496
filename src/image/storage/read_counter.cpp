#include "cuvet/image/read_counter.hpp"

#include <atomic>

namespace cuvet::image {
namespace {
std::atomic<std::uint64_t> bytes_read{0};
}

std::uint64_t layer_bytes_read() { return bytes_read.load(std::memory_order_relaxed); }

void count_layer_bytes(std::uint64_t bytes) {
    bytes_read.fetch_add(bytes, std::memory_order_relaxed);
}

}  // namespace cuvet::image
