#pragma once

// Where this checkout's sources, build tree and cuvet binary are. They are defined in one
// generated file (tests/CMakeLists.txt), not passed as compile definitions, so that no test
// object carries a checkout's paths: ccache then shares test objects between checkouts and
// builds. Every test translation unit sees this header (a forced include), so the names
// below work as they did when they were definitions.
namespace cuvet::test::build_paths {
const char* source_dir();
const char* build_dir();
const char* cuvet_binary();
}  // namespace cuvet::test::build_paths

#define CUVET_SOURCE_DIR (::cuvet::test::build_paths::source_dir())
#define CUVET_BUILD_DIR (::cuvet::test::build_paths::build_dir())
#define CUVET_BINARY_PATH (::cuvet::test::build_paths::cuvet_binary())
