#pragma once
// Runs real programs (cuvet itself, gcc, umoci, skopeo) from tests.
#include <string>
#include <vector>

namespace cuvet::test {

struct ProcessResult {
    int exit_code = -1;
    std::string out;  // stdout
    std::string err;  // stderr
};

// Runs `command` through /bin/sh; stdout and stderr are captured separately.
ProcessResult run_shell(const std::string& command);
// Runs the cuvet binary under test with the given arguments (shell-quoted here).
ProcessResult run_cuvet(const std::vector<std::string>& args);
bool have_program(const std::string& name);
// Whether this process may make mount namespaces (root, and unshare(1) works): the sandbox
// tests need it.
bool can_unshare();
std::string shell_quote(const std::string& word);

}  // namespace cuvet::test
