// The classes the seventh unseen corpus's tuning part showed
// (bench/lint_corpus/unseen7/README.md): each as a snippet in the pattern of the public
// file, with the cases that must keep their verdict.
#include <catch2/catch.hpp>

#include "checks/lint_test_support.hpp"

using namespace cuvet;
using cuvet::test::lint_ids;

TEST_CASE("CUVL01 reports a PyTorch release never published for the CUDA index asked",
          "[lint][lint-corpus7][CUVL01]") {
    // unseen7 t04 (Abraxas-S3M/S3M-Core): torch 2.3.0 was built for CUDA 11.8 and 12.1;
    // cu124 builds start with 2.4.
    const std::string base = "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n";
    auto missing = lint_ids(
        base + "RUN pip3 install torch==2.3.0 --index-url https://download.pytorch.org/whl/cu124\n",
        "CUVL01");
    REQUIRE(missing.size() == 1);
    CHECK(missing[0].message.find("never published") != std::string::npos);
    // PyTorch never had a cu122 index: a CUDA no release was built for.
    CHECK(lint_ids("FROM nvidia/cuda:12.2.2-runtime-ubuntu22.04\n"
                   "RUN python3 -m pip install --index-url https://download.pytorch.org/whl/cu122 "
                   "\"torch==2.8.*\"\n",
                   "CUVL01")
              .size() == 1);
    // A build that exists, and an extra index (pip may take PyPI's build), stay silent.
    CHECK(lint_ids(base + "RUN pip3 install torch==2.4.0 --index-url "
                          "https://download.pytorch.org/whl/cu124\n",
                   "CUVL01")
              .empty());
    CHECK(lint_ids(base + "RUN pip3 install torch==2.3.0 --extra-index-url "
                          "https://download.pytorch.org/whl/cu124\n",
                   "CUVL01")
              .empty());
}

TEST_CASE("CUVL12 reports NVENC/NVDEC driver libraries", "[lint][lint-corpus7][CUVL12]") {
    // unseen7 t14 (CouchWarriorByPython/video_cut_app): `apt-get install libnvidia-encode-*`.
    CHECK(lint_ids("FROM nvidia/cuda:12.3.1-runtime-ubuntu22.04\n"
                   "RUN apt-get update && apt-get install -y ffmpeg libnvidia-encode-* "
                   "libnvidia-decode-535\n",
                   "CUVL12")
              .size() == 1);
    CHECK(lint_ids("FROM nvidia/cuda:12.3.1-runtime-ubuntu22.04\n"
                   "RUN apt-get update && apt-get install -y ffmpeg libnvidia-container-tools\n",
                   "CUVL12")
              .empty());
}

TEST_CASE("CUVL11 is silent on a stub directory in an ld.so.conf.d file sorted last",
          "[lint][lint-corpus7][CUVL11]") {
    // unseen7 t03 (TensorFlow's own GPU Dockerfile pattern): z-cuda-stubs.conf sorts after
    // x86_64-linux-gnu.conf, so the driver the toolkit injects there wins.
    const std::string base = "FROM nvidia/cuda:11.0.3-base-ubuntu18.04\n";
    const std::string link =
        "RUN ln -s /usr/local/cuda/lib64/stubs/libcuda.so /usr/local/cuda/lib64/stubs/libcuda.so.1"
        " && echo \"/usr/local/cuda/lib64/stubs\" > /etc/ld.so.conf.d/";
    CHECK(lint_ids(base + link + "z-cuda-stubs.conf && ldconfig\n", "CUVL11").empty());
    // A file sorted before the multiarch one puts the stub first.
    CHECK(lint_ids(base + link + "cuda-stubs.conf && ldconfig\n", "CUVL11").size() == 1);
    // On a distribution without the multiarch file the order does not help.
    CHECK(lint_ids("FROM nvidia/cuda:11.0.3-base-ubi8\n" + link + "z-cuda-stubs.conf\n", "CUVL11")
              .size() == 1);
}

TEST_CASE("pipx install and inject are read as pip installs", "[lint][lint-corpus7][CUVL03]") {
    // unseen7 t23 (Erebus-Nyx/Intv_App): `pipx inject intv "torch>=2.0.0" …`.
    const std::string base = "FROM nvidia/cuda:12.1.1-runtime-ubuntu22.04\n";
    CHECK(lint_ids(base + "RUN pipx install --editable . && pipx inject intv \"torch>=2.0.0\" "
                          "\"fastapi>=0.100.0\"\n",
                   "CUVL03")
              .size() == 1);
    CHECK(lint_ids(base + "RUN pipx inject intv torch==2.4.0 fastapi\n", "CUVL03").empty());
    // The app's own project is a local install: its GPU stack is unreadable.
    CHECK(lint_ids(base + "COPY . /src\nRUN cd /src && pipx install --editable .\n", "CUVL14")
              .size() == 1);
}
