// CUVL14 (the GPU framework is out of the linter's sight):
// Dockerfiles of our own that raise it and that must not, through the call
// `cuvet lint` makes, against the built-in rules.
#include <catch2/catch.hpp>

#include "checks/lint_test_support.hpp"

using namespace cuvet;
using cuvet::test::lint_ids;

TEST_CASE("CUVL14 says when the GPU framework is out of sight", "[lint][CUVL14]") {
    auto found = lint_ids(
        "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n"
        "COPY requirements.txt .\n"
        "RUN pip install -r requirements.txt\n",
        "CUVL14");
    REQUIRE(found.size() == 1);
    CHECK(found[0].severity == report::Severity::info);
    CHECK(found[0].locations.at(0).line == 3);
    CHECK(lint_ids("FROM ubuntu:24.04\nRUN uv sync --frozen --extra cuda\n", "CUVL14").size() == 1);
    // A visible framework is judged by the other checks; a CPU image is none of our business.
    CHECK(lint_ids("FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n"
                   "RUN pip install torch==2.5.1 -r requirements.txt\n",
                   "CUVL14")
              .empty());
    CHECK(
        lint_ids("FROM python:3.12-slim\nRUN pip install -r requirements.txt\n", "CUVL14").empty());
}
