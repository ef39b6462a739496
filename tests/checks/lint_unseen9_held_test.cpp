// The classes the ninth unseen corpus's held-back part showed when it was scored once
// (bench/lint_corpus/unseen9/README.md): each as a snippet in the pattern of the public file,
// with the cases that must keep their verdict.
#include <catch2/catch.hpp>

#include "checks/lint_test_support.hpp"

using namespace cuvet;
using cuvet::test::lint_ids;

TEST_CASE("CUVL07 counts SGLang's extras that pull flashinfer as a toolkit user",
          "[lint][lint-corpus9][CUVL07]") {
    // unseen9 h16, h36, h41: sglang[all] on a -devel base; h11: sglang-omni. flashinfer-python
    // compiles its kernels with nvcc at first use, so the -devel base is deliberate.
    const std::string base = "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n";
    CHECK(lint_ids(base + "RUN pip3 install \"sglang[all]\"\n", "CUVL07").empty());
    CHECK(lint_ids(base + "RUN pip install \"sglang[srt]==0.5.1.post3\"\n", "CUVL07").empty());
    CHECK(lint_ids(base + "RUN pip install --pre \"sglang-omni==0.1.3\"\n", "CUVL07").empty());
    // Without an extra that pulls it, SGLang's front-end compiles nothing.
    CHECK(lint_ids(base + "RUN pip install \"sglang[openai]==0.5.1.post3\"\n", "CUVL07").size() ==
          1);
}

TEST_CASE("CUVL14 sees a framework cloned and installed as a local project",
          "[lint][lint-corpus9][CUVL14]") {
    // unseen9 h20 (an MXNet fork): the framework's own repository, built with make, then
    // `pip install -e .` of its python/ directory.
    const std::string base =
        "FROM nvidia/cuda:9.0-cudnn7-devel-ubuntu16.04\n"
        "RUN git clone --recursive https://github.com/apache/incubator-mxnet.git\n"
        "WORKDIR /incubator-mxnet\n"
        "RUN make USE_CUDA=1 USE_CUDNN=1 -j4\n";
    CHECK(lint_ids(base + "RUN cd python && pip install -e .\n", "CUVL14").empty());
    // A local project beside a clone of something else stays unreadable.
    CHECK(lint_ids("FROM nvidia/cuda:9.0-cudnn7-devel-ubuntu16.04\n"
                   "RUN git clone https://github.com/example/app.git\n"
                   "WORKDIR /app\n"
                   "RUN pip install -e .\n",
                   "CUVL14")
              .size() == 1);
}

TEST_CASE("CUVL02 reads TensorRT's tar wheel as bindings for the system's libraries",
          "[lint][lint-corpus9][CUVL02]") {
    // unseen9 h22: TensorRT 6's tar, its python/ wheel, the system CUDA on LD_LIBRARY_PATH.
    const std::string base =
        "FROM nvidia/cuda:10.1-cudnn7-runtime-ubuntu18.04\n"
        "ENV LD_LIBRARY_PATH=/usr/local/cuda/lib64:/opt/TensorRT-6.0.1.5/lib\n"
        "ADD ./TensorRT-6.0.1.5 /opt/TensorRT-6.0.1.5\n";
    CHECK(lint_ids(base +
                       "RUN pip3 install "
                       "/opt/TensorRT-6.0.1.5/python/tensorrt-6.0.1.5-cp36-none-linux_x86_64.whl\n",
                   "CUVL02")
              .empty());
    // From the index, the pip packages bring TensorRT's libraries: the system dir shadows them.
    CHECK(lint_ids(base + "RUN pip3 install tensorrt==10.13.3.9\n", "CUVL02").size() == 1);
}

TEST_CASE("CUVL03 reports llama-cpp-python compiled with CUDA on and no version",
          "[lint][lint-corpus9][CUVL03]") {
    // unseen9 h07: CMAKE_ARGS in the RUN; the same through an earlier ENV.
    const std::string base = "FROM nvidia/cuda:12.1.1-devel-ubuntu22.04\n";
    auto found = lint_ids(
        base +
            "RUN CMAKE_ARGS=\"-DLLAMA_CUDA=on\" pip3 install --upgrade llama-cpp-python[server]\n",
        "CUVL03");
    REQUIRE(found.size() == 1);
    CHECK(found[0].message.find("compiled here with CUDA on") != std::string::npos);
    CHECK(lint_ids(base + "ENV CMAKE_ARGS=\"-DGGML_CUDA=on\"\nRUN pip install llama-cpp-python\n",
                   "CUVL03")
              .size() == 1);
    // A pinned release, or a CPU build (OpenBLAS), stays silent.
    CHECK(
        lint_ids(base + "RUN CMAKE_ARGS=\"-DGGML_CUDA=on\" pip install llama-cpp-python==0.3.16\n",
                 "CUVL03")
            .empty());
    CHECK(lint_ids(base + "ENV CMAKE_ARGS=\"-DLLAMA_BLAS=ON\"\nRUN pip install llama-cpp-python\n",
                   "CUVL03")
              .empty());
}

TEST_CASE("CUVL03 leaves out a conda library named for its CUDA build",
          "[lint][lint-corpus10][CUVL03]") {
    // unseen10 t23: the pytorch channel's magma-cuda90; every release is that CUDA's build.
    const std::string base = "FROM nvidia/cuda:11.8.0-devel-ubuntu22.04\n";
    CHECK(lint_ids(base + "RUN conda install -y -c pytorch magma-cuda118\n", "CUVL03").empty());
    // A framework named for its CUDA build still moves between releases.
    CHECK(lint_ids(base + "RUN pip install cupy-cuda11x\n", "CUVL03").size() == 1);
}
