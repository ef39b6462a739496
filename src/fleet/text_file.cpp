#include "text_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "cuvet/core/error.hpp"

namespace cuvet::fleet {

std::string read_text_file(const std::string& path, const std::string& what) {
    std::ifstream in(path, std::ios::binary);
    if (!in) fail_io(path + ": cannot open " + what + ": " + std::strerror(errno));
    std::ostringstream text;
    text << in.rdbuf();
    // A directory opens but does not read.
    if (in.bad() || (in.fail() && !in.eof() && text.str().empty()))
        fail_io(path + ": cannot read " + what);
    return text.str();
}

}  // namespace cuvet::fleet
