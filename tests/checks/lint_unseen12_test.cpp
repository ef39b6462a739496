// The class the twelfth unseen corpus's tuning part showed whose fix is data in rules/
// (bench/lint_corpus/unseen12/README.md): runpod/pytorch tags name torch, CUDA and the flavour.
#include <catch2/catch.hpp>

#include "checks/lint_test_support.hpp"

using namespace cuvet;
using cuvet::test::lint_ids;

TEST_CASE("CUVL07 reads the -devel flavour of a runpod/pytorch tag",
          "[lint][lint-corpus12][CUVL07]") {
    // unseen12 t23 (NEXT71/AI_CALL_CENTER): only wheels on the devel image, nothing compiles.
    CHECK(lint_ids("FROM runpod/pytorch:2.1.0-py3.10-cuda11.8.0-devel-ubuntu22.04\n"
                   "RUN pip install --no-cache-dir fastapi==0.109.0 transformers==4.36.2\n",
                   "CUVL07")
              .size() == 1);
}

TEST_CASE("CUVL01 reads the CUDA of a runpod/pytorch tag", "[lint][lint-corpus12][CUVL01]") {
    // unseen12 t23: PyPI's torch 2.1.2 is the CUDA 12.1 build, over the base's 2.1.0+cu118.
    const std::string base = "FROM runpod/pytorch:2.1.0-py3.10-cuda11.8.0-devel-ubuntu22.04\n";
    CHECK(lint_ids(base + "RUN pip install --no-cache-dir torch==2.1.2\n", "CUVL01").size() == 1);
    // The tag's own build, from its own index, is right.
    CHECK(lint_ids(base + "RUN pip install torch==2.1.0 --index-url "
                          "https://download.pytorch.org/whl/cu118\n",
                   "CUVL01")
              .empty());
    // RunPod's newer scheme names its image release first: 1.0.3 is not torch 1.0.3.
    CHECK(lint_ids("FROM runpod/pytorch:1.0.3-cu1281-torch291-ubuntu2404\n"
                   "RUN pip install --no-cache-dir --no-deps torchvision==0.24.1\n",
                   "CUVL01")
              .empty());
}

TEST_CASE("CUVL14 leaves a local project installed with --no-deps",
          "[lint][lint-corpus12][CUVL14]") {
    // unseen12 t03: the stack is installed by name; the project adds only its own code.
    const std::string base =
        "FROM nvidia/cuda:12.6.1-runtime-ubuntu22.04\nCOPY . .\n"
        "RUN pip install \"warp-lang==1.9.0\" numpy==2.1.0\n";
    CHECK(lint_ids(base + "RUN pip install --no-cache-dir --no-deps -e .\n", "CUVL14").empty());
    CHECK(lint_ids(base + "RUN pip install --no-cache-dir -e . --no-deps\n", "CUVL14").empty());
    // With its requirements it may bring the framework.
    CHECK(lint_ids(base + "RUN pip install --no-cache-dir -e .\n", "CUVL14").size() == 1);
    // A requirements file installs every line even with --no-deps.
    CHECK(lint_ids(base + "RUN pip install --no-deps -r requirements.txt\n", "CUVL14").size() == 1);
}
