#include "cuvet/core/text_input.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "cuvet/core/error.hpp"
#include "cuvet/core/scan_limits.hpp"
#include "cuvet/core/unique_fd.hpp"

namespace cuvet {
namespace {

// Reads at most the limit and one byte more: one byte over is enough to know.
std::string read_capped(int fd, const std::string& name) {
    const std::uint64_t limit = scan_limits().input_bytes;
    std::string text;
    char buffer[65536];
    while (true) {
        const ssize_t got = ::read(fd, buffer, sizeof buffer);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) fail_io(name + ": cannot read: " + std::strerror(errno));
        if (got == 0) return text;
        text.append(buffer, static_cast<std::size_t>(got));
        if (text.size() > limit)
            throw LimitExceeded("more than " + std::to_string(limit) + " bytes", "input-bytes")
                .with_file(name);
    }
}

bool inside(const std::filesystem::path& path, const std::filesystem::path& dir) {
    auto [end, rest] = std::mismatch(dir.begin(), dir.end(), path.begin(), path.end());
    return end == dir.end();
}

// A checkout may commit `Dockerfile` as a link to /etc/shadow or a CI secret:
// a name inside the working tree must lead to a file inside it (whose first
// line an error would quote). A name outside it was chosen by whoever runs cuvet.
void refuse_link_out_of_tree(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code error;
    const fs::path cwd = fs::current_path(error);
    if (error) return;
    const fs::path named = (cwd / path).lexically_normal();
    if (!inside(named, cwd)) return;
    const fs::path real = fs::weakly_canonical(named, error);
    const fs::path real_cwd = fs::weakly_canonical(cwd, error);
    if (error) return;
    if (!inside(real, real_cwd))
        fail_input(path + ": a symbolic link out of the working tree (to " + real.string() +
                   "); not read");
}

}  // namespace

std::string read_text_input(const std::string& path) {
    if (path == "-") return read_capped(STDIN_FILENO, "<stdin>");
    refuse_link_out_of_tree(path);
    // O_NONBLOCK: opening a FIFO for reading would wait for a writer forever.
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
    if (!fd) fail_io(path + ": cannot open: " + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) fail_io(path + ": cannot stat: " + std::strerror(errno));
    if (S_ISDIR(st.st_mode)) fail_io(path + ": is a directory");
    if (!S_ISREG(st.st_mode))
        fail_input(path + ": not a regular file (a FIFO, device or socket is not read)");
    const int flags = ::fcntl(fd.get(), F_GETFL);
    if (flags >= 0) ::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK);
    return read_capped(fd.get(), path);
}

}  // namespace cuvet
