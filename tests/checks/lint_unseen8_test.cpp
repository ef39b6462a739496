// The classes the eighth unseen corpus's tuning part showed
// (bench/lint_corpus/unseen8/README.md): each as a snippet in the pattern of the public
// file, with the cases that must keep their verdict.
#include <catch2/catch.hpp>

#include "checks/lint_test_support.hpp"

using namespace cuvet;
using cuvet::test::lint_ids;

TEST_CASE("CUVL07 is silent beside flashinfer-python, which compiles its kernels on first use",
          "[lint][lint-corpus8][CUVL07]") {
    // unseen8 t25 (ryota0051/vllm-example): vLLM with flashinfer-python on a cudnn-devel base.
    const std::string base =
        "FROM nvidia/cuda:12.8.1-cudnn-devel-ubuntu22.04\n"
        "RUN pip install vllm==0.8.5 --extra-index-url "
        "https://download.pytorch.org/whl/cu128";
    CHECK(lint_ids(base + " && pip install flashinfer-python -i "
                          "https://flashinfer.ai/whl/cu126/torch2.6/\n",
                   "CUVL07")
              .empty());
    // Without it nothing needs nvcc: the devel base is still reported.
    CHECK(lint_ids(base + "\n", "CUVL07").size() == 1);
}

TEST_CASE("CUVL13 reports an unpinned libcudnn8 that apt resolves to a CUDA 12 build",
          "[lint][lint-corpus8][CUVL13]") {
    // unseen8 t30 (yKesamaru/FACE01_DEV): `apt-get install libcudnn8 libcudnn8-dev` on CUDA
    // 11.6; the newest libcudnn8 in NVIDIA's ubuntu2004 repository is 8.9.7's CUDA 12 build.
    const std::string install =
        "RUN apt-get update && apt-get install -y libcudnn8 libcudnn8-dev\n";
    auto found = lint_ids("FROM nvidia/cuda:11.6.1-runtime-ubuntu20.04\n" + install, "CUVL13");
    REQUIRE(found.size() == 1);
    CHECK(found[0].message.find("CUDA 12") != std::string::npos);
    // The same install on CUDA 12, a pinned CUDA 11 build, and a tag that already holds cuDNN
    // stay silent.
    CHECK(lint_ids("FROM nvidia/cuda:12.2.2-runtime-ubuntu22.04\n" + install, "CUVL13").empty());
    CHECK(lint_ids("FROM nvidia/cuda:11.8.0-runtime-ubuntu22.04\n"
                   "RUN apt-get install -y libcudnn8=8.9.7.29-1+cuda11.8\n",
                   "CUVL13")
              .empty());
    CHECK(lint_ids("FROM nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04\n" + install, "CUVL13")
              .empty());
}

TEST_CASE("CUVL10 reports DeepSpeed ops built on a framework image's -runtime tag",
          "[lint][lint-corpus8][CUVL10]") {
    // unseen8 h36 (unionai-oss/llm-fine-tuning), after the held-back score:
    // `DS_BUILD_OPS=1 pip install deepspeed` on pytorch/pytorch's -runtime image (no nvcc).
    const std::string install = "RUN DS_BUILD_OPS=1 pip install deepspeed==0.15.3\n";
    CHECK(lint_ids("FROM pytorch/pytorch:2.0.0-cuda11.7-cudnn8-runtime\n" + install, "CUVL10")
              .size() == 1);
    CHECK(lint_ids("FROM nvidia/cuda:12.1.1-runtime-ubuntu22.04\n" + install, "CUVL10").size() ==
          1);
    // The -devel tag has the compiler; without the switch DeepSpeed builds its ops at run time.
    CHECK(
        lint_ids("FROM pytorch/pytorch:2.0.0-cuda11.7-cudnn8-devel\n" + install, "CUVL10").empty());
    CHECK(lint_ids("FROM pytorch/pytorch:2.0.0-cuda11.7-cudnn8-runtime\n"
                   "RUN pip install deepspeed==0.15.3\n",
                   "CUVL10")
              .empty());
}

TEST_CASE("CUVL01 reads an unpinned package that pins a framework by its newest known release",
          "[lint][lint-corpus8][CUVL01]") {
    // unseen8 h19 (lheuveline/french-speech-chatbot), after the held-back score: `pip install
    // vllm` on a CUDA 11.8 base; every release pip can take pins a torch built for CUDA 12 or 13.
    const std::string install = "RUN pip install vllm\n";
    auto found = lint_ids("FROM nvidia/cuda:11.8.0-cudnn8-devel-ubuntu22.04\n" + install, "CUVL01");
    REQUIRE(found.size() == 1);
    CHECK_THAT(found[0].message, Catch::Contains("unpinned: its newest release the rules know"));
    // A range, a URL or another index is not pip's plain newest: still unknown.
    CHECK(lint_ids("FROM nvidia/cuda:11.8.0-cudnn8-devel-ubuntu22.04\n"
                   "RUN pip install 'vllm<0.3'\n",
                   "CUVL01")
              .empty());
    CHECK(lint_ids("FROM nvidia/cuda:11.8.0-cudnn8-devel-ubuntu22.04\n"
                   "RUN pip install vllm --extra-index-url https://example.org/simple\n",
                   "CUVL01")
              .empty());
}

TEST_CASE("auto-gptq builds CUDA extensions at install, and autoawq is CUDA-dependent",
          "[lint][lint-corpus8][CUVL07][CUVL03]") {
    // unseen8 h03: a -devel base beside auto-gptq and autoawq. auto-gptq compiles its CUDA
    // extensions against the installed torch unless BUILD_CUDA_EXT=0 (its README).
    const std::string base =
        "FROM nvidia/cuda:12.1.1-devel-ubuntu22.04\n"
        "RUN pip install torch==2.3.1 vllm==0.5.0";
    CHECK(lint_ids(base + " auto-gptq\n", "CUVL07").empty());
    // autoawq's kernels come prebuilt (autoawq-kernels): by itself it leaves the devel base
    // unjustified, but unpinned it is a CUDA-dependent package.
    CHECK(lint_ids(base + " autoawq\n", "CUVL07").size() == 1);
    CHECK(lint_ids(base + " autoawq\n", "CUVL03").size() == 1);
    CHECK(lint_ids(base + " autoawq==0.2.6\n", "CUVL03").empty());
}

TEST_CASE("CUVL07 is silent beside exllamav2, whose PyPI package compiles on first use",
          "[lint][lint-corpus8][CUVL07]") {
    const std::string base =
        "FROM nvidia/cuda:12.1.1-devel-ubuntu22.04\n"
        "RUN pip install torch==2.3.1";
    CHECK(lint_ids(base + " exllamav2==0.1.8\n", "CUVL07").empty());
    CHECK(lint_ids(base + "\n", "CUVL07").size() == 1);
}
