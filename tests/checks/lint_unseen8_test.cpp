// The classes the eighth unseen corpus's tuning part showed
// (bench/lint_corpus/unseen8/README.md): each as a snippet in the pattern of the public
// file, with the cases that must keep their verdict.
#include <catch2/catch.hpp>

#include "checks/lint_test_support.hpp"

using namespace cuvet;
using cuvet::test::lint_ids;

TEST_CASE("CUVL07 is silent beside flashinfer-python, which compiles its kernels on first use",
          "[lint][lint-corpus8][CUVL07]") {
    // unseen8 t25 (ryota0051/vllm-example): vLLM with flashinfer-python on a cudnn-devel base.
    const std::string base = "FROM nvidia/cuda:12.8.1-cudnn-devel-ubuntu22.04\n"
                             "RUN pip install vllm==0.8.5 --extra-index-url "
                             "https://download.pytorch.org/whl/cu128";
    CHECK(lint_ids(base + " && pip install flashinfer-python -i "
                          "https://flashinfer.ai/whl/cu126/torch2.6/\n",
                   "CUVL07")
              .empty());
    // Without it nothing needs nvcc: the devel base is still reported.
    CHECK(lint_ids(base + "\n", "CUVL07").size() == 1);
}
