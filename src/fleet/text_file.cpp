#include "text_file.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "cuvet/core/error.hpp"
#include "cuvet/core/text_input.hpp"

namespace cuvet::fleet {

std::string read_text_file(const std::string& path, const std::string& what) {
    // Named here, so the error says which input is missing; the reading itself is the one every
    // untrusted text input gets (regular files only, no FIFO wait, capped by input-bytes).
    struct stat info {};
    if (path != "-" && ::stat(path.c_str(), &info) != 0)
        fail_io(path + ": cannot open " + what + ": " + std::strerror(errno));
    return read_text_input(path);
}

}  // namespace cuvet::fleet
