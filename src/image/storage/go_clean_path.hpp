#pragma once
// Go's path/filepath.Clean on Linux: the spelling under which tar-split (docker's and
// podman's layer store) compares the names of one layer's entries.
#include <string>
#include <string_view>

namespace cuvet::image::go_tar {

// The shortest lexically equal path: no empty or "." elements, ".." resolved against the
// element before it (and dropped at the root of a rooted path), "." for nothing.
std::string clean_path(std::string_view path);

}  // namespace cuvet::image::go_tar
