#pragma once
// Fatbin containers built by hand in the layout documented in
// src/elf/fatbin.cpp, for tests of the readers (real nvcc output is in
// tests/support/elf_fixtures).
#include <cstdint>
#include <string>
#include <vector>

namespace cuvet::test {

// One entry: kind (1 PTX, 2 SASS, 8 …), arch (80 for sm_80), a header of
// `header_size` bytes, then `payload` bytes that repeat `fill`.
std::string fatbin_entry(std::uint16_t kind, std::uint32_t arch, std::uint32_t header_size = 64,
                         std::size_t payload = 24, const std::string& fill = "\xaa");

// A container (16-byte header) holding the entries back to back.
std::string fatbin_container(const std::vector<std::string>& entries);

}  // namespace cuvet::test
