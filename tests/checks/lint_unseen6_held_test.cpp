// Issue 37: the sixth unseen corpus's held-back part, scored once
// (bench/lint_corpus/unseen6/README.md). The public files stay with their authors, so each
// held-back file is kept here as a snippet in its pattern with the findings (check ids) it
// got: a change that loses a true finding or adds a false one fails here.
#include <catch2/catch.hpp>
#include <set>

#include "checks/lint_test_support.hpp"

using namespace cuvet;

namespace {

std::multiset<std::string> ids(const std::string& text) {
    auto result = lint::lint_text(text, "Dockerfile", test::db());
    std::multiset<std::string> out;
    for (const auto& f : result.findings) out.insert(f.id);
    return out;
}

using Ids = std::multiset<std::string>;

}  // namespace

TEST_CASE("unseen6 held back: unreadable installs on CUDA bases", "[lint][lint-corpus]") {
    // h01 (uv sync on nvidia/cuda base), h11 (local project on runtime), h09 (requirements on
    // cudnn8-devel: CUVL07 is acceptable there and not given, the requirements being opaque).
    CHECK(ids("FROM nvidia/cuda:12.6.3-base-ubuntu24.04\nCOPY . .\nRUN uv sync\n") ==
          Ids{"CUVL14"});
    CHECK(ids("FROM nvidia/cuda:12.6.3-runtime-ubuntu24.04\nCOPY . /src\n"
              "RUN pip install --no-cache-dir .\n") == Ids{"CUVL14"});
    CHECK(ids("FROM nvidia/cuda:12.1.0-cudnn8-devel-ubuntu22.04\n"
              "ENV LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/usr/lib/x86_64-linux-gnu\n"
              "ADD requirements-torch.txt .\nRUN pip3 install -r requirements-torch.txt\n") ==
          Ids{"CUVL14"});
    // h13: the final stage is chosen by an ARG default and builds on the uv-sync stage.
    CHECK(ids("FROM nvidia/cuda:12.9.1-base-ubuntu24.04 AS base\nRUN uv sync\n"
              "FROM base AS with-vllm\nRUN uv sync --extra vllm\n"
              "FROM base AS with-llamacpp\n"
              "FROM with-${OPTIONAL_DEPS:-llamacpp} AS final\n") == Ids{"CUVL14"});
}

TEST_CASE("unseen6 held back: unpinned JAX over NGC JAX", "[lint][lint-corpus]") {
    // h04 (hu-po/distiller).
    CHECK(ids("FROM nvcr.io/nvidia/jax:23.08-py3\nRUN pip install \"jax[cuda12_pip]\" -f "
              "https://storage.googleapis.com/jax-releases/jax_cuda_releases.html jaxlib\n") ==
          Ids{"CUVL03"});
}

TEST_CASE("unseen6 held back: files with nothing to report", "[lint][lint-corpus]") {
    // h12 (a tabby fork): cuda-compat on LD_LIBRARY_PATH of the builder only.
    CHECK(ids("FROM nvidia/cuda:11.7.1-devel-ubuntu22.04 AS build\n"
              "ENV LD_LIBRARY_PATH=\"/usr/local/cuda/compat/:${LD_LIBRARY_PATH}\"\n"
              "RUN cargo build --features cuda --release\n"
              "FROM nvidia/cuda:11.7.1-runtime-ubuntu22.04\n"
              "COPY --from=build /src/target/release/tabby /opt/tabby/bin/\n")
              .empty());
    // h10: torch pinned from the index of the base's own CUDA.
    CHECK(ids("FROM nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04\n"
              "RUN python3.11 -m pip install torch==2.1.0 torchvision==0.16.0 "
              "--index-url https://download.pytorch.org/whl/cu118\n")
              .empty());
    // h05: CUDA runtime and a held cuDNN from NVIDIA's apt repository on python:3.7.
    CHECK(ids("FROM python:3.7-slim-buster\n"
              "RUN apt-get install -y --no-install-recommends cuda-cudart-11-2=11.2.72-1 "
              "cuda-compat-11-2\n"
              "ENV LD_LIBRARY_PATH /usr/local/nvidia/lib:/usr/local/nvidia/lib64\n"
              "RUN apt-get install -y libcudnn8=8.1.0.77-1+cuda11.2 && apt-mark hold libcudnn8\n")
              .empty());
}
