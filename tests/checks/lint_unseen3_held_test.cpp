// Issue 25, the classes the third unseen corpus's held-back part showed
// (bench/lint_corpus/unseen3/README.md), and the JAX, CNTK and Horovod builds lint
// could not read: each as a snippet in the pattern of the public file, with the cases
// that must stay silent.
#include <catch2/catch.hpp>

#include "checks/lint_test_support.hpp"

using namespace cuvet;
using cuvet::test::lint_ids;

TEST_CASE("CUVL14 is silent on a base whose tag names its framework", "[lint][CUVL14]") {
    // unseen3 h02 (code-kern-ai/refinery-embedder gpu.Dockerfile).
    const std::string tail =
        "COPY requirements.txt .\n"
        "RUN pip3 install --no-cache-dir -r requirements.txt\n";
    CHECK(lint_ids("FROM kernai/refinery-parent-images:v1.19.0-torch-cuda\n" + tail, "CUVL14")
              .empty());
    // The same recipe on a base that says nothing of a framework keeps the finding.
    CHECK(lint_ids("FROM kernai/refinery-parent-images:v1.19.0-cuda\n" + tail, "CUVL14").size() ==
          1);
}

TEST_CASE("CUVL14 points at the requirements file before a git requirement", "[lint][CUVL14]") {
    // unseen3 h12 (SunnyYadav16/court-access-ai): a git URL names one small project; the
    // framework (faster-whisper) comes from the requirements file two lines later.
    auto found = lint_ids(
        "FROM nvidia/cuda:12.2.2-cudnn8-runtime-ubuntu22.04\n"
        "RUN apt-get update && apt-get install -y python3-pip ffmpeg\n"
        "RUN pip install git+https://github.com/EuDs63/ffmpy.git\n"
        "COPY requirements.txt .\n"
        "RUN pip install -r requirements.txt\n",
        "CUVL14");
    REQUIRE(found.size() == 1);
    CHECK(found[0].locations.at(0).line == 5);
    CHECK(found[0].evidence.size() == 2);
    // With only the git requirement, that is what it names.
    found = lint_ids(
        "FROM nvidia/cuda:12.2.2-cudnn8-runtime-ubuntu22.04\n"
        "RUN pip install git+https://github.com/example/detector.git\n",
        "CUVL14");
    REQUIRE(found.size() == 1);
    CHECK(found[0].locations.at(0).line == 2);
}

TEST_CASE("CUVL03 reports an unpinned horovod", "[lint][CUVL03]") {
    // unseen3 h09: Horovod compiles at install against the CUDA toolkit, NCCL and the
    // frameworks already installed, so an unpinned one is a new native build.
    const std::string base =
        "FROM nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04\n"
        "RUN pip install torch==2.5.1\n";
    auto found = lint_ids(base + "RUN HOROVOD_GPU_OPERATIONS=NCCL pip install horovod\n", "CUVL03");
    REQUIRE(found.size() == 1);
    CHECK(found[0].locations.at(0).line == 3);
    CHECK(lint_ids(base + "RUN HOROVOD_GPU_OPERATIONS=NCCL pip install horovod==0.28.1\n", "CUVL03")
              .empty());
    // It compiles CUDA code, so the devel final stage is deliberate.
    CHECK(lint_ids(base + "RUN HOROVOD_GPU_OPERATIONS=NCCL pip install horovod==0.28.1\n", "CUVL07")
              .empty());
}

TEST_CASE("jaxlib CUDA wheels load the system CUDA and cuDNN", "[lint][CUVL01][CUVL10]") {
    // unseen3 t13 (Taichi83/BAP): jaxlib 0.1.57+cuda111 from Google's index on a CUDA 11.1
    // devel base without cuDNN.
    auto found = lint_ids(
        "FROM nvidia/cuda:11.1.1-devel-ubuntu20.04\n"
        "RUN pip install jaxlib==0.1.57+cuda111 -f "
        "https://storage.googleapis.com/jax-releases/jax_releases.html\n",
        "CUVL10");
    REQUIRE(found.size() == 1);
    CHECK(found[0].locations.at(0).line == 2);
    // Another CUDA major than the base's: the wheel's libcudart.so.11.0 is not there.
    found = lint_ids(
        "FROM nvidia/cuda:12.2.2-cudnn8-runtime-ubuntu22.04\n"
        "RUN pip install jaxlib==0.4.20+cuda11.cudnn86 -f "
        "https://storage.googleapis.com/jax-releases/jax_cuda_releases.html\n",
        "CUVL01");
    REQUIRE(found.size() == 1);
    CHECK_THAT(found[0].message, Catch::Contains("CUDA 11"));
    // The same major with its cuDNN present is what the wheel needs.
    CHECK(lint_ids("FROM nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04\n"
                   "RUN pip install jaxlib==0.4.20+cuda11.cudnn86 -f "
                   "https://storage.googleapis.com/jax-releases/jax_cuda_releases.html\n",
                   "CUVL01")
              .empty());
}

TEST_CASE("plain jax[cuda] installs the build its release names", "[lint][CUVL01][CUVL10]") {
    // 0.4.7-0.4.25: jaxlib+cuda11.cudnn86, no NVIDIA wheels (jax setup.py per tag).
    auto found = lint_ids(
        "FROM nvidia/cuda:12.2.2-cudnn8-runtime-ubuntu22.04\n"
        "RUN pip install \"jax[cuda]==0.4.20\" -f "
        "https://storage.googleapis.com/jax-releases/jax_cuda_releases.html\n",
        "CUVL01");
    REQUIRE(found.size() == 1);
    CHECK_THAT(found[0].evidence.at(1), Catch::Contains("jaxlib+cuda11.cudnn86"));
    // 0.4.26-0.4.28: jaxlib+cuda12.cudnn89, the system's cuDNN 8.
    CHECK(lint_ids("FROM nvidia/cuda:12.2.2-cudnn8-runtime-ubuntu22.04\n"
                   "RUN pip install \"jax[cuda]==0.4.26\"\n",
                   "CUVL01")
              .empty());
    CHECK(lint_ids("FROM nvidia/cuda:12.2.2-runtime-ubuntu22.04\n"
                   "RUN pip install \"jax[cuda]==0.4.26\"\n",
                   "CUVL10")
              .size() == 1);
    // From 0.4.30 the plugin brings its NVIDIA wheels; unpinned or a release the rules do not
    // reach is unknown, never a finding.
    for (const std::string spec :
         {"jax[cuda]==0.4.30", "jax[cuda]==0.11.0", "jax[cuda]", "jax[cuda]==0.12.0"}) {
        INFO(spec);
        CHECK(lint_ids("FROM nvidia/cuda:12.2.2-runtime-ubuntu22.04\n"
                       "RUN pip install \"" +
                           spec + "\"\n",
                       "CUVL10")
                  .empty());
        CHECK(lint_ids("FROM nvidia/cuda:12.2.2-runtime-ubuntu22.04\n"
                       "RUN pip install \"" +
                           spec + "\"\n",
                       "CUVL01")
                  .empty());
    }
}

TEST_CASE("a CNTK GPU wheel is judged against the base", "[lint][CUVL01]") {
    // CNTK 2.1's GPU edition: CUDA 8.0 and cuDNN 6.0 (its release notes), here on CUDA 9.0.
    auto found = lint_ids(
        "FROM nvidia/cuda:9.0-cudnn7-runtime-ubuntu16.04\n"
        "RUN pip install https://cntk.ai/PythonWheel/GPU/cntk-2.1-cp35-cp35m-linux_x86_64.whl\n",
        "CUVL01");
    REQUIRE(found.size() == 1);
    CHECK_THAT(found[0].message, Catch::Contains("CUDA 8.0"));
    // The CPU-only wheel needs no CUDA at all.
    CHECK(lint_ids("FROM nvidia/cuda:9.0-cudnn7-runtime-ubuntu16.04\n"
                   "RUN pip install "
                   "https://cntk.ai/PythonWheel/CPU-Only/cntk-2.1-cp35-cp35m-linux_x86_64.whl\n",
                   "CUVL01")
              .empty());
}
