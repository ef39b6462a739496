#pragma once
// The text of the last system call's error, for one-line error messages.
#include <cerrno>
#include <cstring>
#include <string>

namespace cuvet {

inline std::string errno_text() { return std::strerror(errno); }

}  // namespace cuvet
