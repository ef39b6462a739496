// CUVL13 (a cuDNN built for another CUDA major):
// Dockerfiles of our own that raise it and that must not, through the call
// `cuvet lint` makes, against the built-in rules.
#include <catch2/catch.hpp>

#include "checks/lint_test_support.hpp"

using namespace cuvet;
using cuvet::test::lint_ids;

TEST_CASE("CUVL13 cuDNN for another CUDA major", "[lint][CUVL13]") {
    auto found = lint_ids(
        "FROM nvidia/cuda:13.0.1-runtime-ubuntu24.04\n"
        "RUN apt-get install -y libcudnn9-cuda-12 libcudnn9-dev-cuda-12\n",
        "CUVL13");
    REQUIRE(found.size() == 1);
    CHECK(found[0].severity == report::Severity::error);
    CHECK_THAT(found[0].message, Catch::Contains("CUDA 13"));

    CHECK(lint_ids("FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n"
                   "RUN apt-get install -y libcudnn8=8.9.7.29-1+cuda11.8\n",
                   "CUVL13")
              .size() == 1);
    CHECK(lint_ids("FROM continuumio/miniconda3\n"
                   "RUN conda install -y cudatoolkit=11.8 cudnn=8.9.2.26=cuda12_0\n",
                   "CUVL13")
              .size() == 1);
    CHECK(lint_ids("FROM nvidia/cuda:13.0.1-runtime-ubuntu24.04\n"
                   "RUN apt-get install -y libcudnn9-cuda-13\n",
                   "CUVL13")
              .empty());
    CHECK(lint_ids("FROM nvidia/cuda:11.8.0-runtime-ubuntu22.04\n"
                   "RUN apt-get install -y libcudnn8=8.6.0.163-1+cuda11.8\n",
                   "CUVL13")
              .empty());
}

TEST_CASE("a cuDNN package name with an absurd major is no crash", "[lint][CUVL13]") {
    const std::string text =
        "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n"
        "RUN apt-get install -y libcudnn99999999999999-cuda-12\n"
        "RUN pip install tensorflow==2.16.1\n";
    CHECK_NOTHROW(lint::lint_text(text, "Dockerfile", test::db()));
}
