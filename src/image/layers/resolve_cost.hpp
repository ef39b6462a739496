#pragma once
// What FileTree::resolve has cost on this thread: the bytes of the paths it
// rebuilt while following symbolic links. Whoever resolves paths an image
// chose (the layer applier resolves every entry's parent) bounds that work
// with it: 40 links of 4 KB per entry over a million entries is minutes.
#include <cstdint>

namespace cuvet::image {

std::uint64_t& link_bytes_followed();

}  // namespace cuvet::image
