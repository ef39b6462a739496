#pragma once
// Dockerfiles and .cuvet.yaml come from a checkout a pull request controls: a
// symbolic link to /dev/zero, a FIFO or an endless stdin must not hang a CI
// job or fill its memory. Only regular files are read (a FIFO is opened
// without blocking, then refused), and only up to the `input-bytes` limit. A
// name inside the working directory that a symbolic link leads out of it is
// refused (a Dockerfile committed as a link to /etc/shadow is not quoted).
#include <string>

namespace cuvet {

// The whole text of `path` ("-": standard input). Throws Error (io) when it
// cannot be opened or is a directory, Error (input) when it is not a regular
// file or a link out of the working tree, LimitExceeded when it is longer
// than scan_limits().input_bytes.
std::string read_text_input(const std::string& path);

}  // namespace cuvet
