// The classes the ninth unseen corpus's tuning part showed whose fix is data in rules/
// (bench/lint_corpus/unseen9/README.md): each as a snippet in the pattern of the public file,
// with the cases that must keep their verdict.
#include <catch2/catch.hpp>

#include "checks/lint_test_support.hpp"

using namespace cuvet;
using cuvet::test::lint_ids;

TEST_CASE("CUVL03 reports ONNX Runtime's GPU nightly installed without a version",
          "[lint][lint-corpus9][CUVL03]") {
    // unseen9 t34 (zhangyaobit/scratch): the nightly from TestPyPI on a TensorRT image.
    const std::string base = "FROM nvcr.io/nvidia/tensorrt:22.04-py3\n";
    auto found = lint_ids(base + "RUN python3.8 -m pip install -i https://test.pypi.org/simple/ "
                                 "ort-nightly-gpu\n",
                          "CUVL03");
    REQUIRE(found.size() == 1);
    CHECK(found[0].message.find("ort-nightly-gpu") != std::string::npos);
    // A pinned nightly and the CPU nightly stay silent.
    CHECK(lint_ids(base + "RUN pip install ort-nightly-gpu==1.11.0.dev20220320001\n", "CUVL03")
              .empty());
    CHECK(lint_ids(base + "RUN pip install ort-nightly\n", "CUVL03").empty());
}
