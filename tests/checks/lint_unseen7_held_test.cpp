// The classes the seventh unseen corpus's held-back part showed after its one score
// (bench/lint_corpus/unseen7/README.md): GPU packages the rules did not know, a CUDA wheel
// index that names the package a requirements file installs, and torch without its
// nvidia-* wheels. Each as a snippet in the pattern of the public file, with the cases that
// must keep their verdict.
#include <catch2/catch.hpp>

#include "checks/lint_test_support.hpp"

using namespace cuvet;
using cuvet::test::lint_ids;

namespace {

const std::string cuda124 = "FROM nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04\n";

}  // namespace

TEST_CASE("CUVL03 reports rembg's gpu extra unpinned, not rembg alone",
          "[lint][lint-corpus7-held][CUVL03]") {
    // unseen7 h06 (Altariox/removebg_project): the gpu extra pulls onnxruntime-gpu.
    auto unpinned = lint_ids(
        cuda124 +
            "RUN micromamba run -n app python -m pip install --no-cache-dir \"rembg[gpu]\" "
            "Pillow\n",
        "CUVL03");
    REQUIRE(unpinned.size() == 1);
    CHECK(unpinned[0].message.find("rembg[gpu]") != std::string::npos);
    CHECK(lint_ids(cuda124 + "RUN pip install \"rembg[cli, gpu]\"\n", "CUVL03").size() == 1);
    CHECK(lint_ids(cuda124 + "RUN pip install rembg \"rembg[cpu]\" Pillow\n", "CUVL03").empty());
    CHECK(lint_ids(cuda124 + "RUN pip install \"rembg[gpu]==2.0.77\"\n", "CUVL03").empty());
}

TEST_CASE("CUVL03 reports faiss-gpu unpinned, from pip and conda",
          "[lint][lint-corpus7-held][CUVL03]") {
    // unseen7 h30 (EY-hackthon12/seamless-retail): `pip install --no-cache-dir faiss-gpu`.
    CHECK(lint_ids(cuda124 + "RUN pip install --no-cache-dir faiss-gpu\n", "CUVL03").size() == 1);
    CHECK(lint_ids(cuda124 + "RUN conda install -y -c pytorch faiss-gpu\n", "CUVL03").size() == 1);
    CHECK(lint_ids(cuda124 + "RUN pip install faiss-gpu-cu12\n", "CUVL03").size() == 1);
    CHECK(lint_ids(cuda124 + "RUN pip install faiss-gpu==1.7.2 faiss-cpu\n", "CUVL03").empty());
}

TEST_CASE("causal-conv1d and mamba-ssm are CUDA extensions built with the toolkit",
          "[lint][lint-corpus7-held][CUVL03][CUVL07]") {
    // unseen7 h49 (TrifuRazvan/TV3S-DINOv3): both built --no-build-isolation against torch 2.7.
    const std::string devel = "FROM nvidia/cuda:12.8.1-cudnn-devel-ubuntu22.04\n";
    const std::string torch =
        "RUN pip install torch==2.7.0 --index-url "
        "https://download.pytorch.org/whl/cu128\n";
    auto unpinned = lint_ids(devel + torch +
                                 "RUN micromamba run -n tv3s pip install --no-build-isolation "
                                 "causal-conv1d\n"
                                 "RUN micromamba run -n tv3s pip install --no-build-isolation "
                                 "mamba-ssm\n",
                             "CUVL03");
    REQUIRE(unpinned.size() == 2);
    CHECK(unpinned[0].locations.front().line == 3);
    CHECK(unpinned[1].locations.front().line == 4);
    // Pinned, they still compile with nvcc when no prebuilt wheel matches: a -devel final
    // stage is deliberate.
    const std::string pinned =
        devel + torch + "RUN pip install --no-build-isolation causal-conv1d==1.5.0.post8\n";
    CHECK(lint_ids(pinned, "CUVL03").empty());
    CHECK(lint_ids(pinned, "CUVL07").empty());
    CHECK(lint_ids(devel + torch, "CUVL07").size() == 1);
}

TEST_CASE("CUVL10 reads llama-cpp-python's CUDA index given to a requirements install",
          "[lint][lint-corpus7-held][CUVL10]") {
    // unseen7 h20 (CCpcalvin/DnD-Dungeon-Master-AI): the index serves only llama-cpp-python's
    // CUDA 12.3 wheels, which load the system's libcudart and libcublas; a -base tag has none.
    const std::string requirements =
        "RUN pip install --no-cache-dir -r requirements.txt --extra-index-url "
        "https://abetlen.github.io/llama-cpp-python/whl/cu123\n";
    auto on_base = lint_ids("FROM nvidia/cuda:12.3.0-base-ubuntu22.04\n" + requirements, "CUVL10");
    REQUIRE(on_base.size() == 1);
    CHECK(on_base[0].locations.front().line == 2);
    CHECK(on_base[0].message.find("llama-cpp-python's CUDA 12.3 build") != std::string::npos);
    CHECK(lint_ids("FROM python:3.11-slim\n" + requirements, "CUVL10").size() == 1);
    // A runtime tag has them; PyTorch's index says nothing of what the file installs.
    CHECK(
        lint_ids("FROM nvidia/cuda:12.3.2-runtime-ubuntu22.04\n" + requirements, "CUVL10").empty());
    CHECK(lint_ids("FROM nvidia/cuda:12.3.0-base-ubuntu22.04\n"
                   "RUN pip install -r requirements.txt --extra-index-url "
                   "https://download.pytorch.org/whl/cu121\n",
                   "CUVL10")
              .empty());
    // Named outright, from its index: the same, and a CUDA build without a version.
    const std::string named =
        "FROM nvidia/cuda:12.3.0-base-ubuntu22.04\n"
        "RUN pip install llama-cpp-python --extra-index-url "
        "https://abetlen.github.io/llama-cpp-python/whl/cu123\n";
    CHECK(lint_ids(named, "CUVL10").size() == 1);
    CHECK(lint_ids(named, "CUVL03").size() == 1);
    // From PyPI without CUDA switched on it is a CPU source build: nothing CUDA to pin. With
    // CMAKE_ARGS turning CUDA on, each rebuild compiles another release (unseen9 h07).
    CHECK(lint_ids("FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n"
                   "RUN pip install llama-cpp-python\n",
                   "CUVL03")
              .empty());
    CHECK(lint_ids("FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n"
                   "RUN CMAKE_ARGS=\"-DGGML_CUDA=on\" pip install llama-cpp-python\n",
                   "CUVL03")
              .size() == 1);
}

TEST_CASE("CUVL02 is silent beside a torch installed --no-deps",
          "[lint][lint-corpus7-held][CUVL02]") {
    // unseen7 h21 (chrishayen/muzzle): torch 2.11 (cu128) without its nvidia-* wheels, and
    // NVIDIA's apt cuSPARSELt / NVSHMEM directories on LD_LIBRARY_PATH: the system copies are
    // the only ones, so nothing is shadowed.
    const std::string head =
        "FROM nvidia/cuda:12.8.1-cudnn-runtime-ubuntu24.04\n"
        "RUN apt-get update && apt-get install -y libcusparselt0-cuda-12 libnvshmem3-cuda-12\n"
        "ENV LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/libcusparseLt/12:"
        "/usr/lib/x86_64-linux-gnu/nvshmem/12\n";
    const std::string torch = "torch==2.11.0 --index-url https://download.pytorch.org/whl/cu128\n";
    CHECK(lint_ids(head + "RUN python -m pip install --no-deps " + torch, "CUVL02").empty());
    // With its nvidia-* wheels, those directories shadow its cuSPARSELt and NVSHMEM; they
    // hold no cuDNN, which lives in the multiarch directory itself.
    auto shadowed = lint_ids(head + "RUN python -m pip install " + torch, "CUVL02");
    REQUIRE(shadowed.size() == 1);
    CHECK(shadowed[0].message.find("cuDNN") == std::string::npos);
    CHECK(shadowed[0].message.find("(CUDA libraries)") != std::string::npos);
    // A torch before CUDA 12 may carry its libraries in the wheel: --no-deps changes nothing.
    CHECK(lint_ids("FROM nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04\n"
                   "ENV LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu\n"
                   "RUN pip install --no-deps torch==2.0.1 --index-url "
                   "https://download.pytorch.org/whl/cu118\n",
                   "CUVL02")
              .size() == 1);
}
