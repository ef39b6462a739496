#pragma once
// The one exception type that ends a command. Its category decides the exit
// code, and only the CLI maps categories to codes (docs/architecture.md, "Principles").
#include <stdexcept>
#include <string>

namespace cuvet {

enum class ErrorKind {
    usage,     // the user asked for something that cannot be done
    input,     // the image, Dockerfile or rules file is malformed
    io,        // the file system refused (missing file, permission)
    internal,  // a bug in cuvet
};

class Error : public std::runtime_error {
public:
    Error(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
    ErrorKind kind() const noexcept { return kind_; }

private:
    ErrorKind kind_;
};

[[noreturn]] inline void fail_input(const std::string& message) {
    throw Error(ErrorKind::input, message);
}
[[noreturn]] inline void fail_usage(const std::string& message) {
    throw Error(ErrorKind::usage, message);
}
[[noreturn]] inline void fail_io(const std::string& message) {
    throw Error(ErrorKind::io, message);
}

}  // namespace cuvet
