// Issue 25, second unseen corpus (bench/lint_corpus/unseen2): the classes of false
// findings and misses its tuning part and the first corpus's held-back part left,
// each as a minimal Dockerfile of our own in the pattern of the original.
#include <catch2/catch.hpp>

#include "checks/lint_test_support.hpp"

using namespace cuvet;
using cuvet::test::lint_ids;

TEST_CASE("CUVL14 counts a local wheel of a package the rules do not know", "[lint][CUVL14]") {
    // unseen2 t22: sglang's own dev wheel from the build context brings torch; its
    // requirements are inside the wheel.
    auto found = lint_ids(
        "FROM nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04\n"
        "COPY wheel/ wheel/\n"
        "RUN pip install wheel/sglang-0.0.0.dev11416+g92e8bb79e-py3-none-any.whl \\\n"
        "  && pip install kernels==0.11.7\n",
        "CUVL14");
    REQUIRE(found.size() == 1);
    CHECK(found[0].locations.at(0).line == 3);
    CHECK(found[0].message.find("local wheel wheel/sglang-0.0.0.dev11416") != std::string::npos);
    // A local wheel of a framework names its build; a wheel fetched by URL is a release.
    CHECK(lint_ids("FROM nvidia/cuda:12.1.1-runtime-ubuntu22.04\n"
                   "RUN pip install dist/torch-2.1.0+cu121-cp310-cp310-linux_x86_64.whl\n",
                   "CUVL14")
              .empty());
    CHECK(lint_ids("FROM nvidia/cuda:11.0.3-runtime-ubuntu20.04\n"
                   "RUN pip3 install https://dl.google.com/coral/python/"
                   "tflite_runtime-2.1.0.post1-cp36-cp36m-linux_x86_64.whl\n",
                   "CUVL14")
              .empty());
}

TEST_CASE("CUVL14 is not silenced by an apt TensorRT library", "[lint][CUVL14]") {
    // unseen h08: libnvinfer7 from apt beside a conda environment file that brings the
    // framework.
    auto found = lint_ids(
        "FROM nvidia/cuda:10.1-cudnn7-devel-ubuntu18.04\n"
        "RUN apt-get update && apt-get install -y libnvinfer7=7.0.0-1+cuda10.2\n"
        "COPY environment.yml /tmp/environment.yml\n"
        "RUN conda env create -f /tmp/environment.yml\n",
        "CUVL14");
    REQUIRE(found.size() == 1);
    CHECK(found[0].locations.at(0).line == 4);
    // NVIDIA's TensorRT containers: the Python binding makes TensorRT the visible framework.
    CHECK(lint_ids("FROM nvidia/cuda:11.8.0-cudnn8-devel-ubuntu20.04\n"
                   "RUN apt-get install -y libnvinfer8=8.6.1.6-1+cuda11.8 "
                   "python3-libnvinfer=8.6.1.6-1+cuda11.8\n"
                   "RUN pip3 install -r /tmp/requirements.txt\n",
                   "CUVL14")
              .empty());
}

TEST_CASE("CUVL02 needs a system library of the wheel's CUDA major", "[lint][CUVL02]") {
    // unseen h13: CUDA 11.6's lib64 holds libcublas.so.11; unpinned torch beside the cu113
    // index takes PyPI's newest release, a CUDA 12 or 13 build that loads .so.12/.so.13.
    CHECK(lint_ids("FROM nvidia/cuda:11.6.2-devel-ubuntu20.04\n"
                   "ENV LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH}\n"
                   "RUN pip3 install torch torchvision torchaudio "
                   "--extra-index-url https://download.pytorch.org/whl/cu113\n",
                   "CUVL02")
              .empty());
    // A pinned CUDA 12 build on a CUDA 11 base: other sonames, nothing shadowed.
    CHECK(lint_ids("FROM nvidia/cuda:11.8.0-runtime-ubuntu22.04\n"
                   "ENV LD_LIBRARY_PATH=/usr/local/cuda/lib64\n"
                   "RUN pip install torch==2.4.0\n",
                   "CUVL02")
              .empty());
    // The same major still shadows: torch 2.4.0 on PyPI is the CUDA 12.1 build.
    CHECK(lint_ids("FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n"
                   "ENV LD_LIBRARY_PATH=/usr/local/cuda/lib64\n"
                   "RUN pip install torch==2.4.0\n",
                   "CUVL02")
              .size() == 1);
    // cuDNN directories are judged as before.
    CHECK(lint_ids("FROM nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04\n"
                   "ENV LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu\n"
                   "RUN pip install torch==2.4.0\n",
                   "CUVL02")
              .size() == 1);
}
