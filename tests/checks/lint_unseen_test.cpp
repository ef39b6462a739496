// Issue 25: the false findings and misses that 50 public Dockerfiles cuvet had never
// seen exposed, each as a minimal Dockerfile of our own in the pattern of the original.
#include <algorithm>
#include <catch2/catch.hpp>
#include <iterator>

#include "checks/lint_test_support.hpp"
#include "cuvet/lint/lint.hpp"
#include "cuvet/rules/database.hpp"
#include "support/builtin_rules.hpp"

using cuvet::test::db;
using namespace cuvet;
using cuvet::test::lint_ids;

TEST_CASE("CUVL01 leaves a wheel of the base's CUDA major alone", "[lint][CUVL01]") {
    // torch 1.13.1+cu117 on Triton 22.12 (CUDA 11.8): torch brings its own CUDA 11.7, and the
    // driver that runs 11.8 runs 11.7.
    CHECK(lint_ids("FROM nvcr.io/nvidia/tritonserver:22.12-py3\n"
                   "RUN pip install torch==1.13.1+cu117 --extra-index-url "
                   "https://download.pytorch.org/whl/cu117\n",
                   "CUVL01")
              .empty());
    // PyPI torch 2.0.1 (CUDA 11.7) on an 11.4.3 devel base that builds DeepSpeed ops: DeepSpeed
    // accepts another minor of the same major.
    CHECK(lint_ids("FROM nvidia/cuda:11.4.3-cudnn8-devel-ubuntu20.04\n"
                   "RUN pip install torch==2.0.1\n"
                   "RUN DS_BUILD_OPS=1 pip install deepspeed==0.9.5\n",
                   "CUVL01")
              .empty());
    // Another major still is a finding: the driver must run CUDA 12.
    CHECK(lint_ids(
              "FROM nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04\n"
              "RUN pip install torch==2.1.0 --index-url https://download.pytorch.org/whl/cu121\n",
              "CUVL01")
              .size() == 1);
}

TEST_CASE("CUVL01 follows the framework a package pins (spleeter-gpu)", "[lint][CUVL01]") {
    auto found = lint_ids(
        "FROM nvidia/cuda:9.2-cudnn7-runtime-ubuntu18.04\n"
        "RUN pip3 install spleeter-gpu==1.4.9\n",
        "CUVL01");
    REQUIRE(found.size() == 1);
    CHECK(found[0].severity == report::Severity::error);
    CHECK_THAT(found[0].message,
               Catch::Contains("tensorflow-gpu==1.14.0") && Catch::Contains("libcudart.so.10.0"));
    // On the CUDA 10.0 base TensorFlow 1.14 was built for, nothing to say.
    CHECK(lint_ids("FROM nvidia/cuda:10.0-cudnn7-runtime-ubuntu18.04\n"
                   "RUN pip3 install spleeter-gpu==1.4.9\n",
                   "CUVL01")
              .empty());
    // The stage's own tensorflow line decides, not the pin (pip keeps what is installed).
    CHECK(lint_ids("FROM nvidia/cuda:9.2-cudnn7-runtime-ubuntu18.04\n"
                   "RUN pip3 install tensorflow-gpu==1.12.0 spleeter-gpu==1.4.9\n",
                   "CUVL01")
              .empty());
}

TEST_CASE("CUVL03 names only packages with CUDA builds on a cuXY index line", "[lint][CUVL03]") {
    auto found = lint_ids(
        "FROM nvidia/cuda:12.1.1-runtime-ubuntu22.04\n"
        "RUN pip install torch==2.1.2 albumentations wandb Pillow opencv-python numpy "
        "transformers --extra-index-url https://download.pytorch.org/whl/cu121\n",
        "CUVL03");
    CHECK(found.empty());
    found = lint_ids(
        "FROM nvidia/cuda:12.1.1-runtime-ubuntu22.04\n"
        "RUN pip install torch torchvision numpy wandb --extra-index-url "
        "https://download.pytorch.org/whl/cu121\n",
        "CUVL03");
    REQUIRE(found.size() == 1);
    CHECK_THAT(found[0].message, Catch::Contains("torch torchvision"));
    CHECK_THAT(found[0].message, !Catch::Contains("numpy") && !Catch::Contains("wandb"));
}

TEST_CASE("CUVL14 stays quiet on a base that carries the framework", "[lint][CUVL14]") {
    CHECK(lint_ids("FROM paddlepaddle/paddle:2.5.1-gpu-cuda11.7-cudnn8.4-trt8.4\n"
                   "COPY requirements.txt .\n"
                   "RUN pip install -r requirements.txt\n",
                   "CUVL14")
              .empty());
    // A loop variable is no project: the message says what it is.
    auto found = lint_ids(
        "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n"
        "RUN for req in a.txt b.txt; do pip install $req; done\n",
        "CUVL14");
    for (const auto& f : found) CHECK_THAT(f.message, !Catch::Contains("local project"));
}

TEST_CASE("CUVL07 sees through binary installers that compile nothing", "[lint][CUVL07]") {
    auto found = lint_ids(
        "FROM nvidia/cuda:10.0-cudnn7-devel-ubuntu18.04\n"
        "RUN wget -q https://repo.anaconda.com/miniconda/Miniconda3-latest-Linux-x86_64.sh "
        "-O ~/miniconda.sh && /bin/bash ~/miniconda.sh -b -p /opt/conda\n"
        "RUN /opt/conda/bin/pip install tensorflow-gpu==1.14.0\n",
        "CUVL07");
    CHECK(found.size() == 1);
    // A project's own install script still may compile.
    CHECK(lint_ids("FROM nvidia/cuda:10.0-cudnn7-devel-ubuntu18.04\n"
                   "COPY install_deps.sh .\nRUN bash install_deps.sh\n",
                   "CUVL07")
              .empty());
}

// Found by the held-back part of the unseen corpus (scored before these fixes).
TEST_CASE("ONNX Runtime's CUDA 12 feed and CUDA-major bounds", "[lint][CUVL01][CUVL03]") {
    CHECK(lint_ids("FROM nvidia/cuda:12.1.1-cudnn8-devel-ubuntu22.04\n"
                   "RUN pip install onnxruntime-gpu==1.18 --extra-index-url "
                   "https://aiinfra.pkgs.visualstudio.com/PublicPackages/_packaging/"
                   "onnxruntime-cuda-12/pypi/simple/\n",
                   "CUVL01")
              .empty());
    // Without the feed, PyPI's 1.18 is the CUDA 11.8 build.
    CHECK(lint_ids("FROM nvidia/cuda:12.1.1-cudnn8-devel-ubuntu22.04\n"
                   "RUN pip install onnxruntime-gpu==1.18\n",
                   "CUVL01")
              .size() == 1);
    CHECK(lint_ids("FROM nvidia/cuda:11.6.2-devel-ubuntu20.04\n"
                   "RUN pip3 install 'cuda-python<12.0.0'\n",
                   "CUVL03")
              .empty());
    CHECK(lint_ids("FROM nvidia/cuda:11.6.2-devel-ubuntu20.04\nRUN pip3 install cuda-python\n",
                   "CUVL03")
              .size() == 1);
}
