// CUVL12 (driver packages installed in the image):
// Dockerfiles of our own that raise it and that must not, through the call
// `cuvet lint` makes, against the built-in rules.
#include <catch2/catch.hpp>

#include "checks/lint_test_support.hpp"

using namespace cuvet;
using cuvet::test::lint_ids;

TEST_CASE("CUVL12 driver packages in the image", "[lint][CUVL12]") {
    auto found = lint_ids(
        "FROM ubuntu:22.04\n"
        "RUN apt-get update && apt-get install -y nvidia-driver-535 libnvidia-compute-535\n",
        "CUVL12");
    REQUIRE(found.size() == 1);  // one install, one finding
    CHECK(found[0].severity == report::Severity::error);
    found = lint_ids("FROM ubuntu:22.04\nRUN apt-get install -y cuda\n", "CUVL12");
    REQUIRE(found.size() == 1);
    CHECK_THAT(found[0].fix, Catch::Contains("cuda-toolkit-X-Y"));
    CHECK(lint_ids("FROM ubuntu:22.04\nRUN apt-get install -y cuda-toolkit-12-4 cuda-compat-12-4\n",
                   "CUVL12")
              .empty());
}
