#pragma once
// A `docker save`-style tar read once, front to back, from a stream (the
// Docker Engine API's export, skopeo's stdout): layers are recognised by the
// digest in their member name and read as they pass, so nothing is written
// to disk. The config (and so the diff_ids) must be known beforehand.
#include <functional>
#include <memory>

#include "cuvet/image/image.hpp"
#include "image/storage/byte_source.hpp"

namespace cuvet::image {

// `info` needs its config (diff_ids, platform) and names (`where`); its layers
// are made from the diff_ids here, and --platform is checked against the config.
// `open_export` starts a fresh export for each scan() that needs a layer
// the memo (the layer fact cache) does not know.
std::unique_ptr<Image> open_streamed_archive(
    ImageInfo info, std::function<std::unique_ptr<ByteSource>()> open_export,
    const OpenOptions& options);

}  // namespace cuvet::image
