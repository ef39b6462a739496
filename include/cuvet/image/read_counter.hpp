#pragma once
// How many bytes of layer tar streams this process has read, over every image
// and worker: what `validate --progress` shows beside the layer count.
#include <cstdint>

namespace cuvet::image {

std::uint64_t layer_bytes_read();
void count_layer_bytes(std::uint64_t bytes);  // the layer reader, after each read

}  // namespace cuvet::image
