#pragma once
// The fleet's input files (image lists, kubectl output) are read whole: they are small.
#include <string>

namespace cuvet::fleet {

// The bytes of `path`; Error(io) naming it and `what` ("the image list") when unreadable.
std::string read_text_file(const std::string& path, const std::string& what);

}  // namespace cuvet::fleet
