// Issue 37, the lint classes the issue names and the sixth unseen corpus's tuning part
// showed (bench/lint_corpus/unseen6/README.md): each as a snippet in the pattern of the
// public file, with the cases that must keep their verdict.
#include <catch2/catch.hpp>

#include "checks/lint_test_support.hpp"

using namespace cuvet;
using cuvet::test::lint_ids;

TEST_CASE("CUVL02 is silent when the system CUDA is the wheel's own release",
          "[lint][lint-corpus][CUVL02]") {
    // unseen6 t08 (JayDS22/…): torch from the cu121 index on a CUDA 12.1 devel base with
    // /usr/local/cuda/lib64 on LD_LIBRARY_PATH: the same libraries, up to a patch level.
    const std::string path = "ENV LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH}\n";
    const std::string torch =
        "RUN pip3 install torch==2.4.0 --index-url https://download.pytorch.org/whl/cu121\n";
    CHECK(lint_ids("FROM nvidia/cuda:12.1.0-devel-ubuntu22.04\n" + path + torch, "CUVL02").empty());
    // Another minor of the same major still shadows the wheel's copies.
    CHECK(lint_ids("FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n" + path + torch, "CUVL02").size() ==
          1);
}

TEST_CASE("CUVL14 reads nvcr.io/nvidia/cuda-dl-base as CUDA without a framework",
          "[lint][lint-corpus][CUVL14]") {
    // unseen6 t11 (NVIDIA-NeMo/Automodel): torch only from uv.lock on cuda-dl-base.
    const std::string sync = "COPY pyproject.toml uv.lock ./\nRUN uv sync --locked --extra cu13\n";
    CHECK(lint_ids("FROM nvcr.io/nvidia/cuda-dl-base:26.04-cuda13.2-devel-ubuntu24.04\n" + sync,
                   "CUVL14")
              .size() == 1);
    // NGC's framework containers carry the framework: nothing hidden.
    CHECK(lint_ids("FROM nvcr.io/nvidia/pytorch:24.10-py3\n" + sync, "CUVL14").empty());
}

TEST_CASE("CUVL14 sees a framework cloned and built into a wheel here",
          "[lint][lint-corpus][CUVL14]") {
    const std::string build =
        " && cd src && python setup.py bdist_wheel && pip install dist/*.whl\n";
    CHECK(lint_ids("FROM nvidia/cuda:12.1.1-devel-ubuntu22.04\n"
                   "RUN git clone --recursive https://github.com/pytorch/pytorch src" +
                       build,
                   "CUVL14")
              .empty());
    // A project of its own built the same way still hides the framework it requires.
    CHECK(lint_ids("FROM nvidia/cuda:12.1.1-devel-ubuntu22.04\n"
                   "RUN git clone https://github.com/acme/app src" +
                       build,
                   "CUVL14")
              .size() == 1);
}

TEST_CASE("CUVL03 knows sglang pulls torch", "[lint][lint-corpus][CUVL03]") {
    // unseen6 t24 (NandiniDhanrale/SpecVLM): `pip install sglang[all]`.
    CHECK(lint_ids("FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nRUN pip install sglang[all]\n",
                   "CUVL03")
              .size() == 1);
    CHECK(lint_ids("FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n"
                   "RUN pip install \"sglang[all]==0.4.6\"\n",
                   "CUVL03")
              .empty());
}

TEST_CASE("CUVL12 apt-get reads cuda-X.Y as a pattern", "[lint][lint-corpus][CUVL12]") {
    auto found = lint_ids("FROM ubuntu:22.04\nRUN apt-get install -y cuda-12.1\n", "CUVL12");
    REQUIRE(found.size() == 1);
    CHECK_THAT(found[0].evidence.at(0), Catch::Contains("pattern"));
    CHECK_THAT(found[0].fix, Catch::Contains("cuda-toolkit-X-Y"));
    CHECK(lint_ids("FROM ubuntu:22.04\nRUN apt-get install -y cuda-toolkit-12-1\n", "CUVL12")
              .empty());
}

TEST_CASE("CUVL11 is silent on compat behind the driver's directory",
          "[lint][lint-corpus][CUVL11]") {
    const std::string base = "FROM nvidia/cuda:12.1.1-runtime-ubuntu22.04\n";
    // The container toolkit puts the host's libcuda.so.1 into the multiarch directory:
    // listed first, it answers before cuda-compat's.
    CHECK(lint_ids(base + "ENV LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu:/usr/local/cuda/compat\n",
                   "CUVL11")
              .empty());
    CHECK(lint_ids(base + "ENV LD_LIBRARY_PATH=/usr/local/cuda/compat:/usr/lib/x86_64-linux-gnu\n",
                   "CUVL11")
              .size() == 1);
    CHECK(lint_ids(base + "ENV LD_LIBRARY_PATH=/usr/local/cuda/lib64/stubs\n", "CUVL11").size() ==
          1);
}

TEST_CASE("CUVL10 CUDA code compiled on a -runtime or -base tag", "[lint][lint-corpus][CUVL10]") {
    const std::string build =
        "RUN CMAKE_ARGS=\"-DLLAMA_CUBLAS=on\" pip install llama-cpp-python==0.2.20\n";
    auto found = lint_ids("FROM nvidia/cuda:12.1.1-runtime-ubuntu22.04\n" + build, "CUVL10");
    REQUIRE(found.size() == 1);
    CHECK(found[0].locations.at(0).line == 2);
    CHECK(lint_ids("FROM nvidia/cuda:12.1.1-base-ubuntu22.04\nRUN FORCE_CUDA=1 pip install .\n",
                   "CUVL10")
              .size() == 1);
    // The -devel tag, or a stage that installs nvcc itself, has the compiler.
    CHECK(lint_ids("FROM nvidia/cuda:12.1.1-devel-ubuntu22.04\n" + build, "CUVL10").empty());
    CHECK(lint_ids("FROM nvidia/cuda:12.1.1-runtime-ubuntu22.04\n"
                   "RUN apt-get install -y cuda-nvcc-12-1\n" +
                       build,
                   "CUVL10")
              .empty());
    CHECK(lint_ids("FROM nvidia/cuda:12.1.1-runtime-ubuntu22.04\n"
                   "RUN cmake -B build -DGGML_CUDA=ON && cmake --build build\n",
                   "CUVL10")
              .size() == 1);
    // unseen/ h03 (Adenov94/torchserve_multiple_models_mlp): a shell variable is no build
    // switch.
    CHECK(lint_ids("FROM nvidia/cuda:11.6.2-cudnn8-runtime-ubuntu20.04\nRUN export USE_CUDA=1\n",
                   "CUVL10")
              .empty());
    // Asking nvcc its version compiles nothing.
    CHECK(lint_ids("FROM nvidia/cuda:12.1.1-runtime-ubuntu22.04\nRUN nvcc --version\n", "CUVL10")
              .empty());
}
