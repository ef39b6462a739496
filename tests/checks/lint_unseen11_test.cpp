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

TEST_CASE("mim install is read as pip", "[lint][lint-corpus11][CUVL03]") {
    // unseen11 t03: OpenMMLab's installer hands its arguments to pip.
    const std::string base =
        "FROM nvidia/cuda:12.8.1-cudnn-devel-ubuntu22.04\n"
        "RUN pip install torch==2.7.0 --index-url https://download.pytorch.org/whl/cu128\n";
    CHECK(lint_ids(base + "RUN pip install -U openmim && mim install \"mmcv>=2.0.1\"\n", "CUVL03")
              .size() == 1);
    CHECK(lint_ids(base + "RUN mim install mmcv==2.2.0\n", "CUVL03").empty());
    // `mim download` installs nothing.
    CHECK(lint_ids(base + "RUN mim download mmdet --config rtmdet_tiny --dest .\n", "CUVL03")
              .empty());
}

TEST_CASE("CUVL14 reads conda's CUDA and a CUDA-named requirements file as GPU intent",
          "[lint][lint-corpus11][CUVL14]") {
    // unseen11 t01: a slim base with CUDA and cuDNN from conda, the stack only in requirements.
    const std::string conda =
        "FROM python:3.12-slim\n"
        "RUN micromamba create --prefix /opt/cuda -c conda-forge -c nvidia/label/cuda-12.8.0 "
        "--yes cuda-toolkit cudnn=9.7\n"
        "COPY requirements.txt .\n"
        "RUN pip install -r requirements.txt\n";
    CHECK(lint_ids(conda, "CUVL14").size() == 1);
    // unseen11 t17: only the file's name says CUDA 12.9.
    CHECK(lint_ids(
              "FROM ubuntu:24.04\nCOPY . .\nRUN pip install -r requirements-pyg-pt28-cu129.txt\n",
              "CUVL14")
              .size() == 1);
    // A name whose "cu" word is no CUDA tag says nothing (a CPU image stays silent).
    CHECK(
        lint_ids("FROM ubuntu:24.04\nCOPY . .\nRUN pip install -r requirements-cur.txt\n", "CUVL14")
            .empty());
}
