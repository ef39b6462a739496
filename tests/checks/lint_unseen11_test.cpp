// The class the eleventh unseen corpus's tuning part showed whose fix is data in rules/
// (bench/lint_corpus/unseen11/README.md): MMCV, a CUDA extension built per torch and CUDA.
#include <catch2/catch.hpp>

#include "checks/lint_test_support.hpp"

using namespace cuvet;
using cuvet::test::lint_ids;

TEST_CASE("CUVL03 reports MMCV installed with a lower bound only",
          "[lint][lint-corpus11][CUVL03]") {
    // unseen11 t03 (cornball-ai/MuseTalk) installs "mmcv>=2.0.1" beside a pinned cu128 torch.
    const std::string base =
        "FROM nvidia/cuda:12.8.1-cudnn-devel-ubuntu22.04\n"
        "RUN pip install torch==2.7.0 --index-url https://download.pytorch.org/whl/cu128\n";
    auto found = lint_ids(base + "RUN pip install \"mmcv>=2.0.1\"\n", "CUVL03");
    REQUIRE(found.size() == 1);
    CHECK(found[0].message.find("mmcv") != std::string::npos);
    // A pinned release stays silent.
    CHECK(lint_ids(base + "RUN pip install mmcv==2.2.0\n", "CUVL03").empty());
}

TEST_CASE("CUVL07 counts an MMCV source build as compiling", "[lint][lint-corpus11][CUVL07]") {
    // Without a wheel for the image's torch and CUDA, pip builds MMCV's CUDA ops with nvcc.
    const std::string base =
        "FROM nvidia/cuda:12.8.1-cudnn-devel-ubuntu22.04\n"
        "RUN pip install torch==2.7.0 --index-url https://download.pytorch.org/whl/cu128\n";
    CHECK(lint_ids(base + "RUN pip install mmcv==2.2.0\n", "CUVL07").empty());
    // Without it the devel stage compiles nothing.
    CHECK(lint_ids(base + "RUN pip install numpy==1.26.4\n", "CUVL07").size() == 1);
}
