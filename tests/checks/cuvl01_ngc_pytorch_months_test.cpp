// CUVL01 on NGC PyTorch bases whose CUDA the table learned from NVIDIA's TensorRT-LLM install
// scripts and from projects that ran the images (rules/ngc_containers.json): without those rows
// the base's CUDA is unknown and a wheel built for another CUDA major passes silently.
#include <catch2/catch.hpp>

#include "checks/lint_test_support.hpp"

using namespace cuvet;
using cuvet::test::lint_ids;

TEST_CASE("CUVL01: a CUDA 13 torch wheel on NGC PyTorch 25.04 (CUDA 12.9)", "[lint][CUVL01][ngc]") {
    const std::string install =
        "RUN pip install torch==2.9.0+cu130 --index-url https://download.pytorch.org/whl/cu130\n";
    auto found = lint_ids("FROM nvcr.io/nvidia/pytorch:25.04-py3\n" + install, "CUVL01");
    REQUIRE(found.size() == 1);
    CHECK(found[0].severity == report::Severity::warning);  // the wheel brings its own CUDA
    CHECK(found[0].message.find("13.0") != std::string::npos);
    std::string said = found[0].message;
    for (const auto& line : found[0].evidence) said += "\n" + line;
    CHECK(said.find("25.04") != std::string::npos);
    // The same wheel on a CUDA 13 month (25.09, CUDA 13.0) is what it was built for.
    CHECK(lint_ids("FROM nvcr.io/nvidia/pytorch:25.09-py3\n" + install, "CUVL01").empty());
}

TEST_CASE("CUVL01: a CUDA 12 torch wheel on NGC PyTorch 25.08 (CUDA 13.0.0)",
          "[lint][CUVL01][ngc]") {
    const std::string install =
        "RUN pip install torch==2.7.1+cu128 --index-url https://download.pytorch.org/whl/cu128\n";
    CHECK(lint_ids("FROM nvcr.io/nvidia/pytorch:25.08-py3\n" + install, "CUVL01").size() == 1);
    // 25.06 is CUDA 12.9.1: a CUDA 12.8 wheel runs on it.
    CHECK(lint_ids("FROM nvcr.io/nvidia/pytorch:25.06-py3\n" + install, "CUVL01").empty());
}
