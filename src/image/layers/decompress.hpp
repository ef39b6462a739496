#pragma once
// Layer decompression chosen by magic bytes, never by the declared media type:
// registries and tools get media types wrong, the bytes do not lie.
#include <memory>
#include <string>

#include "image/storage/byte_source.hpp"

namespace cuvet::image {

enum class Compression { none, gzip, zstd };
std::string to_string(Compression compression);

struct DecompressedStream {
    std::unique_ptr<ByteSource> source;
    Compression compression = Compression::none;
};

// Peeks at the first bytes of `raw` and stacks the matching decompressor on
// it. `name` appears in every error ("truncated gzip stream in <name>").
DecompressedStream open_decompressed(std::unique_ptr<ByteSource> raw, const std::string& name);

}  // namespace cuvet::image
