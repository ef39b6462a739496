// unseen16's tuning classes (bench/lint_corpus/unseen16/README.md): a build-environment image,
// a stub link a later RUN removes, a source build's own requirements, compat/lib.real.
#include <catch2/catch.hpp>

#include "checks/lint_test_support.hpp"

using namespace cuvet;
using cuvet::test::lint_ids;

TEST_CASE("CUVL07 is silent on an image made to build CUDA code in",
          "[lint][lint-corpus16][CUVL07]") {
    // t11: a build system and NCCL's headers on a -devel base; the build runs later, from a
    // volume.
    const std::string base = "FROM nvidia/cuda:12.8.0-devel-ubuntu22.04\n";
    CHECK(lint_ids(base + "RUN apt-get update && apt-get install -y build-essential ninja-build "
                          "libnccl-dev\nRUN nvcc --version\n",
                   "CUVL07")
              .empty());
    // A compiler alone is what any sdist asks for (unseen t23: build-essential, libcudnn7-dev).
    CHECK(
        lint_ids(base + "RUN apt-get update && apt-get install -y build-essential libcudnn9-dev\n",
                 "CUVL07")
            .size() == 1);
}

TEST_CASE("CUVL11 forgets a stub link that a later RUN removes", "[lint][lint-corpus16][CUVL11]") {
    // t13: the stub is linked for a build step, then deleted before the image ships.
    const std::string base = "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n";
    const std::string link =
        "RUN ln -sf /usr/local/cuda/lib64/stubs/libcuda.so /usr/local/cuda/lib64/libcuda.so.1\n";
    CHECK(lint_ids(
              base + link + "RUN make -C /src\n" + "RUN rm -f /usr/local/cuda/lib64/libcuda.so.1\n",
              "CUVL11")
              .empty());
    CHECK(lint_ids(base + link + "RUN make -C /src\n", "CUVL11").size() == 1);
}

TEST_CASE("CUVL11 reads NGC's compat/lib.real as the compat libcuda",
          "[lint][lint-corpus16][CUVL11]") {
    // t23: LD_LIBRARY_PATH names the forward-compatibility libraries themselves.
    CHECK(lint_ids("FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n"
                   "ENV LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/usr/local/cuda/compat/lib.real\n",
                   "CUVL11")
              .size() == 1);
}

TEST_CASE("CUVL14 leaves a CUDA source build's own requirements alone",
          "[lint][lint-corpus16][CUVL14]") {
    // t31: Caffe's python requirements installed in a loop, then cmake -DUSE_CUDNN=1 .. && make:
    // the GPU code is compiled right there on the base's CUDA.
    const std::string base = "FROM nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04\n";
    CHECK(lint_ids(base + "RUN git clone https://github.com/BVLC/caffe.git && cd caffe/python && "
                          "for req in $(cat requirements.txt); do pip3 install $req; done && "
                          "cd .. && mkdir build && cd build && cmake -DUSE_CUDNN=1 .. && make\n",
                   "CUVL14")
              .empty());
    // CMAKE_ARGS for one pip package leaves the file's installs out of sight (unseen4 t18).
    CHECK(lint_ids(base + "RUN CMAKE_ARGS=\"-DGGML_CUDA=on\" pip install llama-cpp-python==0.2.79 "
                          "&& pip install -r requirements.txt\n",
                   "CUVL14")
              .size() == 1);
}
