// Triton server months whose rows only build.py at the release tag (or branch) gives: the server
// version, nothing about the container's CUDA (its release notes were not found).
#include <catch2/catch.hpp>

#include "rules/rules_fixtures.hpp"

using namespace cuvet::test;

TEST_CASE("NGC Triton server versions from build.py fill the months without notes",
          "[rules][ngc]") {
    const std::pair<const char*, const char*> rows[] = {
        {"21.06", "2.11.0"}, {"23.01", "2.30.0"}, {"23.02", "2.31.0"}, {"24.09", "2.50.0"},
        {"24.11", "2.52.0"}, {"25.01", "2.54.0"}, {"25.05", "2.58.0"}, {"25.07", "2.59.1"},
        {"25.09", "2.61.0"}, {"26.05", "2.69.0"}, {"26.07", "2.71.0"}};
    for (const auto& [release, server] : rows) {
        INFO(release);
        const auto* triton = db().ngc_container("tritonserver", std::string(release) + "-py3");
        REQUIRE(triton);
        CHECK(triton->framework_version == server);
        CHECK(triton->provenance.confidence.empty());  // the project's own build script
    }
    // No notes read for these months: their CUDA stays unknown, never a neighbour's.
    CHECK_FALSE(db().ngc_container("tritonserver", "25.05")->cuda);
    CHECK_FALSE(db().ngc_container("tritonserver", "24.09")->cuda);
    // 26.05 and 26.07 keep the CUDA their notes give.
    CHECK(db().ngc_container("tritonserver", "26.05")->cuda->str() == "13.2.1");
    CHECK(db().ngc_container("tritonserver", "26.07")->cuda->str() == "13.3.1");
    // 21.01: build.py at no tag maps a release to it; no row.
    CHECK_FALSE(db().ngc_container("tritonserver", "21.01"));
}
