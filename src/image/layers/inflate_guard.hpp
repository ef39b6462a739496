#pragma once
// A 9 MB zstd layer of hand-made RLE blocks inflates to 255 GiB: minutes of
// CPU before its diff_id can be found wrong. The layer's compressed bytes are
// counted as they are read, and once it has inflated past a floor, a layer
// that inflates more than `inflate-ratio` times its compressed size is
// refused (exit 3): it fails closed, whatever its digests would have said.
#include <cstdint>
#include <memory>
#include <string>

#include "image/storage/byte_source.hpp"

namespace cuvet::image {

// Below this many inflated bytes the ratio is not judged: a small layer of
// zeros is not a bomb, and the check costs nothing there.
inline constexpr std::uint64_t inflate_ratio_floor = 1ull << 30;

// Counts the bytes `inner` gives (the compressed blob) into `*count`.
std::unique_ptr<ByteSource> counting_source(std::unique_ptr<ByteSource> inner,
                                            std::shared_ptr<std::uint64_t> count);

// Passes the decompressed stream through, throwing LimitExceeded (naming the
// layer) once it is past the floor and more than the limit times `*compressed`.
std::unique_ptr<ByteSource> inflate_guard(std::unique_ptr<ByteSource> inflated,
                                          std::shared_ptr<const std::uint64_t> compressed,
                                          std::string name,
                                          std::uint64_t floor = inflate_ratio_floor);

}  // namespace cuvet::image
