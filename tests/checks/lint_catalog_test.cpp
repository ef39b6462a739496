// Issue 35: lint reads frameworks from the catalog (rules/frameworks.json "catalog"). MXNet is
// judged from its catalog record alone (the CUDA its wheel name states, the system libraries
// its spelling says it loads, the cuDNN of its build rows); PaddlePaddle by its build rows per
// CUDA variant; CUVL14 knows a framework image by the catalog's name words.
#include <catch2/catch.hpp>

#include "checks/lint_test_support.hpp"
#include "cuvet/rules/framework_catalog.hpp"

using namespace cuvet;
using cuvet::test::lint_ids;

TEST_CASE("CUVL01 MXNet's per-CUDA wheel against the base's CUDA", "[lint][catalog-lint]") {
    // mxnet-cu101 1.6.0: CUDA 10.1 and cuDNN 7 from the 1.6 cu101 build row.
    auto found = lint_ids(
        "FROM nvidia/cuda:12.1.1-cudnn8-runtime-ubuntu22.04\n"
        "RUN pip install mxnet-cu101==1.6.0\n",
        "CUVL01");
    REQUIRE(found.size() == 1);
    CHECK_THAT(found[0].message, Catch::Contains("built for CUDA 10.1 / cuDNN 7"));
    CHECK_THAT(found[0].message, Catch::Contains("libcudart.so.10.1"));
    CHECK(found[0].locations.at(0).line == 2);
    // Its own CUDA, with the cuDNN major it was built with: nothing to say.
    CHECK(lint_ids("FROM nvidia/cuda:10.1-cudnn7-runtime-ubuntu18.04\n"
                   "RUN pip install mxnet-cu101==1.6.0\n",
                   "CUVL01")
              .empty());
    // The mkl twin is the same build; the name alone fixes the CUDA of an unpinned wheel.
    CHECK(lint_ids("FROM nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04\n"
                   "RUN pip install mxnet-cu101mkl==1.6.0\n",
                   "CUVL01")
              .size() == 1);
    CHECK(lint_ids("FROM nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04\n"
                   "RUN pip install mxnet-cu112\n",
                   "CUVL01")
              .size() == 1);
    // PyPI's plain mxnet is the CPU build.
    CHECK(lint_ids("FROM nvidia/cuda:12.1.1-cudnn8-runtime-ubuntu22.04\n"
                   "RUN pip install mxnet==1.9.1\n",
                   "CUVL01")
              .empty());
}

TEST_CASE("CUVL10 MXNet loads the system's CUDA", "[lint][catalog-lint]") {
    auto found = lint_ids(
        "FROM nvidia/cuda:11.2.2-base-ubuntu20.04\n"
        "RUN pip install mxnet-cu112==1.9.1\n",
        "CUVL10");
    REQUIRE(found.size() == 1);
    CHECK_THAT(found[0].message, Catch::Contains("mxnet-cu112==1.9.1"));
    CHECK(lint_ids("FROM nvidia/cuda:11.2.2-cudnn8-runtime-ubuntu20.04\n"
                   "RUN pip install mxnet-cu112==1.9.1\n",
                   "CUVL10")
              .empty());
}

TEST_CASE("PaddlePaddle's wheels by CUDA variant", "[lint][catalog-lint]") {
    // 2.x wheels load the system's CUDA and cuDNN: a -base tag has neither, a runtime tag
    // without the cudnn token lacks cuDNN.
    CHECK(lint_ids("FROM nvidia/cuda:11.8.0-base-ubuntu22.04\n"
                   "RUN pip install paddlepaddle-gpu==2.6.1\n",
                   "CUVL10")
              .size() == 1);
    auto no_cudnn = lint_ids(
        "FROM nvidia/cuda:11.8.0-runtime-ubuntu22.04\n"
        "RUN pip install paddlepaddle-gpu==2.6.1\n",
        "CUVL10");
    REQUIRE(no_cudnn.size() == 1);
    CHECK_THAT(no_cudnn[0].message, Catch::Contains("loads libcudnn from the system"));
    CHECK(lint_ids("FROM nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04\n"
                   "RUN pip install paddlepaddle-gpu==2.6.1\n",
                   "CUVL10")
              .empty());
    // The .post112 build is CUDA 11.2: on a CUDA 12 base its libcudart.so.11.0 is missing.
    auto post = lint_ids(
        "FROM nvidia/cuda:12.2.2-cudnn8-runtime-ubuntu22.04\n"
        "RUN pip install paddlepaddle-gpu==2.5.2.post112 -f "
        "https://www.paddlepaddle.org.cn/whl/linux/mkl/avx/stable.html\n",
        "CUVL01");
    REQUIRE(post.size() == 1);
    CHECK_THAT(post[0].message, Catch::Contains("CUDA 11.2"));
    // 3.x wheels pull CUDA and cuDNN in as nvidia-* wheels: a plain Python base is enough.
    CHECK(lint_ids("FROM python:3.10\n"
                   "RUN pip install paddlepaddle-gpu==3.0.0 -i "
                   "https://www.paddlepaddle.org.cn/packages/stable/cu126/\n",
                   "CUVL10")
              .empty());
}

TEST_CASE("CUVL14 knows framework images by the catalog's name words", "[lint][catalog-lint]") {
    const auto* caffe = rules::builtin_framework_catalog().find("caffe");
    REQUIRE(caffe);
    CHECK(caffe->name_words == std::vector<std::string>{"caffe"});
    const std::string hidden = "COPY requirements.txt .\nRUN pip install -r requirements.txt\n";
    CHECK(lint_ids("FROM example/caffe-gpu:1.0\n" + hidden, "CUVL14").empty());
    CHECK(lint_ids("FROM example/inference:tritonserver-cuda\n" + hidden, "CUVL14").empty());
    CHECK(lint_ids("FROM example/app:v2-paddle-gpu\n" + hidden, "CUVL14").empty());
    // OpenAI Triton, the compiler, names no framework image: its word is not one.
    CHECK(lint_ids("FROM example/triton-kernels:cuda12\n" + hidden, "CUVL14").size() == 1);
}

TEST_CASE("An install script named for a catalog framework is an unreadable install",
          "[lint][catalog-lint]") {
    const std::string base = "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\nCOPY . /src\n";
    CHECK(lint_ids(base + "RUN bash /src/build_caffe.sh\n", "CUVL14").size() == 1);
    CHECK(lint_ids(base + "RUN bash /src/setup_paddle.sh\n", "CUVL14").size() == 1);
    // A script that names no framework installs something else.
    CHECK(lint_ids(base + "RUN bash /src/build_docs.sh\n", "CUVL14").empty());
}
