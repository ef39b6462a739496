#pragma once
// A root file system holding just what a host program needs to start: the
// program and the files `ldd` names, at the same paths (for chroot tests).
#include <filesystem>

namespace cuvet::test {

void copy_with_libraries(const std::filesystem::path& program, const std::filesystem::path& root);

}  // namespace cuvet::test
