#pragma once
// The suite's sample image (target sample_image, testdata/CMakeLists.txt): a docker-save tar with
// findings. A build without that target has none; a test using it skips then (CUVET_SKIP).
#include <filesystem>

#include "support/build_paths.hpp"

namespace cuvet::test {

// Its path, or empty when it is not built.
inline std::filesystem::path built_sample_image() {
    auto path = std::filesystem::path(CUVET_BUILD_DIR) / "testdata" / "sample-image.tar";
    return std::filesystem::exists(path) ? path : std::filesystem::path();
}

}  // namespace cuvet::test
