#pragma once
// Catch2 2 has no SKIP. A test whose input is absent on this machine (a tool,
// /usr/local/cuda, a GPU, data outside the repository) ends with CUVET_SKIP:
// the warning carries a fixed marker that tests/CMakeLists.txt gives ctest as
// SKIP_REGULAR_EXPRESSION, so ctest reports the test as Skipped, not Passed.
#include <catch2/catch.hpp>

#define CUVET_SKIP_MARKER "CUVET-TEST-SKIPPED"

// Ends the current test (or the helper it is called from, which must return void).
#define CUVET_SKIP(why)                      \
    do {                                     \
        WARN(CUVET_SKIP_MARKER ": " << why); \
        return;                              \
    } while (0)
