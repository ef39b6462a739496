// The classes the ninth unseen corpus's tuning part showed whose fix is data in rules/
// (bench/lint_corpus/unseen9/README.md): each as a snippet in the pattern of the public file,
// with the cases that must keep their verdict.
#include <catch2/catch.hpp>

#include "checks/lint_test_support.hpp"

using namespace cuvet;
using cuvet::test::lint_ids;

TEST_CASE("CUVL03 reports ONNX Runtime's GPU nightly installed without a version",
          "[lint][lint-corpus9][CUVL03]") {
    // unseen9 t34 (zhangyaobit/scratch): the nightly from TestPyPI on a TensorRT image.
    const std::string base = "FROM nvcr.io/nvidia/tensorrt:22.04-py3\n";
    auto found = lint_ids(base +
                              "RUN python3.8 -m pip install -i https://test.pypi.org/simple/ "
                              "ort-nightly-gpu\n",
                          "CUVL03");
    REQUIRE(found.size() == 1);
    CHECK(found[0].message.find("ort-nightly-gpu") != std::string::npos);
    // A pinned nightly and the CPU nightly stay silent.
    CHECK(lint_ids(base + "RUN pip install ort-nightly-gpu==1.11.0.dev20220320001\n", "CUVL03")
              .empty());
    CHECK(lint_ids(base + "RUN pip install ort-nightly\n", "CUVL03").empty());
}

TEST_CASE("CUVL03 leaves out the cuDNN front-end and CUDA library wheels named for their major",
          "[lint][lint-corpus9][CUVL03]") {
    // unseen9 t30 (voipmonitor/blackwell-llm-docker): the cuDNN front-end's Python binding and
    // NVIDIA's cu13 library wheels, unpinned, on a CUDA 13 devel image.
    const std::string base = "FROM nvidia/cuda:13.0.2-cudnn-devel-ubuntu24.04\n";
    CHECK(lint_ids(base + "RUN pip install \"nvidia-cudnn-frontend>=1.13.0\"\n", "CUVL03").empty());
    CHECK(
        lint_ids(base + "RUN pip install --force-reinstall nvidia-nccl-cu13\n", "CUVL03").empty());
    // cuDNN itself stays in scope, unpinned.
    CHECK(lint_ids(base + "RUN pip install nvidia-cudnn-cu13\n", "CUVL03").size() == 1);
}

TEST_CASE("CUVL14 counts a package that is its own GPU runtime, installed as a CUDA build",
          "[lint][lint-corpus9][CUVL14]") {
    // unseen9 t03 (akulkaTimeSquare/diagrams_converter): llama-cpp-python from its CUDA index
    // beside a requirements file cuvet cannot read.
    const std::string base =
        "FROM nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04\n"
        "COPY requirements.txt /app/requirements.txt\n"
        "RUN pip install -r /app/requirements.txt\n";
    CHECK(lint_ids(base + "RUN pip install llama-cpp-python==0.3.16 --extra-index-url "
                          "https://abetlen.github.io/llama-cpp-python/whl/cu124\n",
                   "CUVL14")
              .empty());
    // From PyPI it is a source build without CUDA switched on: the stack stays hidden.
    CHECK(lint_ids(base + "RUN pip install llama-cpp-python==0.3.16\n", "CUVL14").size() == 1);
}

TEST_CASE("CUVL02 is silent when the NVIDIA wheels' library dir comes first",
          "[lint][lint-corpus9][CUVL02]") {
    // unseen9 t30: the CUDA 13 wheels' combined dir ahead of /usr/local/cuda/lib64.
    const std::string base =
        "FROM nvidia/cuda:13.2.0-cudnn-devel-ubuntu24.04\n"
        "RUN pip install torch==2.9.1 --index-url https://download.pytorch.org/whl/cu130\n";
    CHECK(lint_ids(base + "ENV LD_LIBRARY_PATH=\"/opt/venv/lib/python3.12/site-packages/nvidia/"
                          "cu13/lib:/usr/local/cuda/lib64\"\n",
                   "CUVL02")
              .empty());
    // The system dir first still shadows the wheel's libraries.
    CHECK(lint_ids(base + "ENV LD_LIBRARY_PATH=\"/usr/local/cuda/lib64:/opt/venv/lib/python3.12/"
                          "site-packages/nvidia/cu13/lib\"\n",
                   "CUVL02")
              .size() == 1);
}

TEST_CASE("CUVL01 reports an extension wheel built for another torch release",
          "[lint][lint-corpus9][CUVL01]") {
    // unseen9 t31 (volcengine/verl) and unseen8 h28: flash-attn's wheel names the torch it was
    // compiled for in its local version.
    const std::string wheel =
        "RUN pip install https://github.com/Dao-AILab/flash-attention/releases/download/"
        "v2.7.4.post1/flash_attn-2.7.4.post1+cu12torch2.6cxx11abiFALSE-cp310-cp310-linux_x86_64."
        "whl\n";
    auto found = lint_ids(
        "FROM nvcr.io/nvidia/pytorch:24.08-py3\nRUN pip install torch==2.7.1\n" + wheel, "CUVL01");
    REQUIRE(found.size() == 1);
    CHECK(found[0].severity == report::Severity::error);
    CHECK_THAT(found[0].message,
               Catch::Contains("built for torch 2.6") && Catch::Contains("runs torch 2.7.1"));
    // Without a pin the base image's torch decides (NGC PyTorch 24.11 ships torch 2.6).
    std::string for_24 = wheel;
    for_24.replace(for_24.find("torch2.6"), 8, "torch2.4");
    CHECK(lint_ids("FROM nvcr.io/nvidia/pytorch:24.11-py3\n" + for_24, "CUVL01").size() == 1);
    CHECK(lint_ids("FROM nvcr.io/nvidia/pytorch:24.11-py3\n" + wheel, "CUVL01").empty());
    // The matching torch, and a wheel whose version names no framework, stay silent.
    CHECK(lint_ids("FROM nvcr.io/nvidia/pytorch:24.08-py3\nRUN pip install torch==2.6.0\n" + wheel,
                   "CUVL01")
              .empty());
    CHECK(lint_ids("FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n"
                   "RUN pip install torch==2.6.0 flash-attn==2.7.4.post1\n",
                   "CUVL01")
              .empty());
}
