#include "support/program_rootfs.hpp"

#include <sstream>
#include <stdexcept>
#include <string>

#include "support/process.hpp"

namespace cuvet::test {

namespace fs = std::filesystem;

void copy_with_libraries(const fs::path& program, const fs::path& root) {
    const ProcessResult ldd = run_shell("ldd " + shell_quote(program.string()));
    if (ldd.exit_code != 0) throw std::runtime_error("ldd " + program.string() + ": " + ldd.err);
    std::istringstream lines(ldd.out);
    std::string line;
    while (std::getline(lines, line)) {
        std::string path;
        if (auto arrow = line.find("=> "); arrow != std::string::npos) {
            path = line.substr(arrow + 3, line.find(" (", arrow) - arrow - 3);
        } else if (auto slash = line.find('/'); slash != std::string::npos) {
            path = line.substr(slash, line.find(" (", slash) - slash);
        }
        if (path.empty() || path[0] != '/') continue;
        fs::create_directories(root / fs::path(path).relative_path().parent_path());
        fs::copy_file(fs::canonical(path), root / fs::path(path).relative_path(),
                      fs::copy_options::overwrite_existing);
    }
}

}  // namespace cuvet::test
