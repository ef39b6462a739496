// Issue 25, the classes the fifth unseen corpus (all held back) showed when it was scored
// once (bench/lint_corpus/unseen5/README.md), fixed afterwards: each as a snippet in the
// pattern of the public file, with the cases that must keep their verdict.
#include <catch2/catch.hpp>

#include "checks/lint_test_support.hpp"

using namespace cuvet;
using cuvet::test::lint_ids;

TEST_CASE("CUVL01 up to CUDA 10: another minor is another libcudart", "[lint][CUVL01]") {
    // unseen5 h18 (iminders/maddpg): tensorflow-gpu 2.3.1 (CUDA 10.1) on a CUDA 10.0 base,
    // named through ENV.
    auto found = lint_ids(
        "FROM nvidia/cuda:10.0-cudnn7-devel-ubuntu18.04\n"
        "ENV TF_PACKAGE tensorflow-gpu\n"
        "ENV TF_PACKAGE_VERSION 2.3.1\n"
        "RUN pip install --no-cache-dir "
        "${TF_PACKAGE}${TF_PACKAGE_VERSION:+==${TF_PACKAGE_VERSION}}\n",
        "CUVL01");
    REQUIRE(found.size() == 1);
    CHECK_THAT(found[0].message, Catch::Contains("libcudart.so.10.1"));
    // The release's own CUDA minor is what it loads.
    CHECK(lint_ids("FROM nvidia/cuda:10.1-cudnn7-devel-ubuntu18.04\n"
                   "RUN pip install tensorflow-gpu==2.3.1\n",
                   "CUVL01")
              .empty());
    // From CUDA 11 one soname serves every minor of the major.
    CHECK(lint_ids("FROM nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04\n"
                   "RUN pip install tensorflow==2.13.0\n",
                   "CUVL01")
              .empty());
}

TEST_CASE("CUVL14 sees the rules' other GPU frameworks", "[lint][CUVL14]") {
    // unseen5 h52 (xl8-ai/face-detection-recognition): mxnet-cu112 named outright beside a
    // local project install.
    CHECK(lint_ids("FROM nvidia/cuda:11.2.2-cudnn8-runtime-ubuntu20.04\n"
                   "COPY . /app\n"
                   "RUN pip install mxnet-cu112 flask && pip install .\n",
                   "CUVL14")
              .empty());
    // An extension named for its CUDA build does not show the framework under it.
    CHECK(lint_ids("FROM nvidia/cuda:11.3.1-cudnn8-devel-ubuntu20.04\n"
                   "RUN pip install -r requirements.txt && pip install bagua-cuda113\n",
                   "CUVL14")
              .size() == 1);
}
