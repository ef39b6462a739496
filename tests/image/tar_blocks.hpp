#pragma once
// Pieces of hand-made tar archives, for the tests that write headers no tar tool would write.
#include <cstdint>
#include <cstdio>
#include <string>

namespace cuvet::test {

// `value` as width-1 octal digits and a NUL at `at` of a header block, as ustar writes numbers.
inline void put_octal(std::string& block, std::size_t at, std::size_t width, std::uint64_t value) {
    std::snprintf(&block[at], width, "%0*llo", static_cast<int>(width - 1),
                  static_cast<unsigned long long>(value));
}

// `data` padded with NULs to a whole number of 512-byte blocks, as a member's data is stored.
inline std::string padded(std::string data) {
    data.resize((data.size() + 511) / 512 * 512, '\0');
    return data;
}

}  // namespace cuvet::test
