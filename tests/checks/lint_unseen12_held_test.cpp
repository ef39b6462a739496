// The classes unseen12's held-back part showed (bench/lint_corpus/unseen12/README.md, scored
// once before these changes).
#include <catch2/catch.hpp>

#include "checks/lint_test_support.hpp"

using namespace cuvet;
using cuvet::test::lint_ids;

TEST_CASE("CUVL09 reports a bare release tag, a tag with no OS suffix",
          "[lint][lint-corpus12-held][CUVL09]") {
    // unseen12 h04: nvidia/cuda:7.5, the oldest tags' spelling, deleted with the other tags
    // that name no OS.
    for (const char* tag : {"7.5", "10.0", "11.8"}) {
        CAPTURE(tag);
        CHECK(lint_ids(std::string("FROM nvidia/cuda:") + tag + "\nRUN nvcc --version\n", "CUVL09")
                  .size() == 1);
    }
    CHECK(lint_ids("FROM nvidia/cuda:11.8.0-devel-ubuntu22.04\nRUN nvcc --version\n", "CUVL09")
              .empty());
}

TEST_CASE("CUVL01 leaves a pin that the base's framework release already satisfies",
          "[lint][lint-corpus12-held][CUVL01]") {
    // unseen12 h25: torch==2.1.0 on runpod/pytorch 2.1.0 (CUDA 11.8) is "already satisfied" by
    // the base's cu118 build, so PyPI's cu121 wheel never comes.
    const std::string base = "FROM runpod/pytorch:2.1.0-py3.10-cuda11.8.0-devel-ubuntu22.04\n";
    CHECK(lint_ids(base + "RUN pip install torch==2.1.0 torchvision==0.16.0\n", "CUVL01").empty());
    // Another release replaces it, and so does a pin that names the local version.
    CHECK(lint_ids(base + "RUN pip install torch==2.2.0\n", "CUVL01").size() == 1);
    CHECK(lint_ids(base + "RUN pip install torch==2.1.0+cu121 "
                          "--index-url https://download.pytorch.org/whl/cu121\n",
                   "CUVL01")
              .size() == 1);
}

TEST_CASE("CUVL03 leaves triton beside the torch that pins it",
          "[lint][lint-corpus12-held][CUVL03]") {
    // unseen12 h28 (NGC PyTorch base) and unseen13 h18 (torch installed first): torch's wheels
    // pin their triton (rules/kernel_compilers.json), so `pip install triton` is already
    // satisfied.
    const std::string cuda = "FROM nvidia/cuda:12.8.1-cudnn-devel-ubuntu24.04\n";
    CHECK(lint_ids(cuda + "RUN pip install torch==2.7.0 --index-url "
                          "https://download.pytorch.org/whl/cu128\n"
                          "RUN pip install pyyaml triton\n",
                   "CUVL03")
              .empty());
    CHECK(lint_ids("FROM nvcr.io/nvidia/pytorch:24.07-py3\nRUN pip install \"triton>=3.0.0\"\n",
                   "CUVL03")
              .empty());
    // Without torch nothing pins it.
    CHECK(lint_ids(cuda + "RUN pip install pyyaml triton\n", "CUVL03").size() == 1);
}
