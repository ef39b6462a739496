#include "support/process.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include "support/temp_dir.hpp"

namespace cuvet::test {

std::string shell_quote(const std::string& word) {
    std::string quoted = "'";
    for (char c : word) {
        if (c == '\'')
            quoted += "'\\''";
        else
            quoted += c;
    }
    return quoted + "'";
}

ProcessResult run_shell(const std::string& command) {
    TempDir scratch;
    auto out_path = scratch / "out", err_path = scratch / "err";
    std::string full = "( " + command + " ) >" + shell_quote(out_path.string()) + " 2>" +
                       shell_quote(err_path.string()) + " </dev/null";
    int status = std::system(full.c_str());
    ProcessResult result;
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    result.out = read_file(out_path);
    result.err = read_file(err_path);
    return result;
}

ProcessResult run_cuvet(const std::vector<std::string>& args) {
    std::string command = shell_quote(CUVET_BINARY_PATH);
    for (const auto& arg : args) command += " " + shell_quote(arg);
    return run_shell(command);
}

bool have_program(const std::string& name) {
    return run_shell("command -v " + shell_quote(name)).exit_code == 0;
}

bool can_unshare() { return ::geteuid() == 0 && run_shell("unshare -m true").exit_code == 0; }

}  // namespace cuvet::test
