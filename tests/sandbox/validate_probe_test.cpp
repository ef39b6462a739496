// `cuvet validate --probe` on a host without a GPU: one clear line, exit 3,
// and the static analysis is not silently passed off as the live check.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>

#include "support/process.hpp"
#include "support/sample_image.hpp"
#include "support/skip.hpp"

using cuvet::test::run_cuvet;

TEST_CASE("validate --probe without a GPU exits 3 with one clear line", "[sandbox][validate]") {
    if (std::filesystem::exists("/dev/nvidia0") || std::filesystem::exists("/dev/nvidiactl")) {
        CUVET_SKIP("skipped: this host has an NVIDIA GPU");
    }
    const auto sample = cuvet::test::built_sample_image();
    if (sample.empty()) {
        CUVET_SKIP("skipped: the sample image is not built (target sample_image)");
    }
    auto result = run_cuvet({"validate", "--probe", "--no-progress", sample.string()});
    INFO(result.err);
    CHECK(result.exit_code == 3);
    CHECK(result.err.find("no GPU visible on this host") != std::string::npos);
    CHECK(std::count(result.err.begin(), result.err.end(), '\n') == 1);
}
