#pragma once

// CUVET_TEST_UNDER_ASAN is set when this file is compiled with AddressSanitizer: GCC says so with
// __SANITIZE_ADDRESS__, clang 14 only through __has_feature.
#if defined(__SANITIZE_ADDRESS__)
#define CUVET_TEST_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CUVET_TEST_UNDER_ASAN 1
#endif
#endif
