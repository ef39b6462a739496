// Unpinned installs the rules say cannot move the GPU stack, and their look-alikes that can:
// a frozen wheel index (detectron2), a CUDA release named in an unknown package's extra,
// Triton-only packages (flash-linear-attention) and packages compiled at install against the
// image's toolkit (dlib). Each case was a CUVL03 the labels called false.
#include <catch2/catch.hpp>

#include "checks/lint_test_support.hpp"

using namespace cuvet;
using cuvet::test::lint_ids;

namespace {

const std::string stable_devel_base = "FROM nvidia/cuda:11.0.3-cudnn8-devel-ubuntu18.04\n";
const std::string stable_runtime_base = "FROM nvidia/cuda:12.8.1-runtime-ubuntu24.04\n";

}  // namespace

TEST_CASE("CUVL03 is silent on detectron2 from its frozen find-links pages",
          "[lint][lint-stable-unpinned][CUVL03]") {
    // unseen5 h01: the cu110/torch1.7 page was last filled for v0.6 (Oct 2021), so every
    // rebuild gets the same wheel.
    CHECK(
        lint_ids(stable_devel_base +
                     "RUN pip install detectron2 -f "
                     "https://dl.fbaipublicfiles.com/detectron2/wheels/cu110/torch1.7/index.html\n",
                 "CUVL03")
            .empty());
    // The same package from an index that is not frozen is still a moving target.
    CHECK(lint_ids(stable_devel_base +
                       "RUN pip install detectron2 -f https://example.org/detectron2/wheels/\n",
                   "CUVL03")
              .size() == 1);
}

TEST_CASE("CUVL03 is silent when an unknown package's extra names the CUDA release",
          "[lint][lint-stable-unpinned][CUVL03]") {
    // unseen9 t30: nvidia-cutlass-dsl[cu13]. Every release the extra can take is a CUDA 13
    // build, as every nvidia-*-cu13 wheel is.
    for (const char* extra : {"cu13", "cuda12", "cu129"}) {
        CAPTURE(extra);
        CHECK(lint_ids(stable_runtime_base + "RUN pip install \"made-up-kernels[" + extra + "]\"\n",
                       "CUVL03")
                  .empty());
    }
    // A bare [cuda] leaves the CUDA release to each release (mlx[cuda], unseen11 h07).
    CHECK(lint_ids(stable_runtime_base + "RUN pip install \"made-up-kernels[cuda]\"\n", "CUVL03")
              .size() == 1);
    // A package the rules know keeps its row's verdict (flash-attn-4[cu13], unseen11 h33).
    CHECK(lint_ids(stable_runtime_base + "RUN pip install --pre \"flash-attn-4[cu13]\"\n", "CUVL03")
              .size() == 1);
}

TEST_CASE("CUVL03 is silent on flash-linear-attention, whose kernels are Triton code",
          "[lint][lint-stable-unpinned][CUVL03]") {
    // unseen7 t29: its CUDA is the installed torch's; triton here is pinned.
    const std::string torch = stable_runtime_base +
                              "RUN pip install torch==2.7.0 --index-url "
                              "https://download.pytorch.org/whl/cu128\n";
    CHECK(lint_ids(torch + "RUN pip install \"triton==3.3.0\" \"flash-linear-attention[cuda]\"\n",
                   "CUVL03")
              .empty());
    CHECK(lint_ids(torch + "RUN pip install flash-linear-attention\n", "CUVL03").empty());
}

TEST_CASE("CUVL03 reports flashinfer, the package's name up to 0.2.0, from its CUDA index",
          "[lint][lint-stable-unpinned][CUVL03]") {
    // unseen12 h28: the name had no row, so the install read as an unknown CPU package.
    const std::string torch =
        "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n"
        "RUN pip install torch==2.4.0 --index-url https://download.pytorch.org/whl/cu124\n";
    CHECK(lint_ids(
              torch + "RUN pip install flashinfer -i https://flashinfer.ai/whl/cu124/torch2.4/\n",
              "CUVL03")
              .size() == 1);
    CHECK(lint_ids(torch + "RUN pip install flashinfer==0.1.6 -i "
                           "https://flashinfer.ai/whl/cu124/torch2.4/\n",
                   "CUVL03")
              .empty());
}

TEST_CASE("CUVL03 is silent on packages every release of which is compiled against the image",
          "[lint][lint-stable-unpinned][CUVL03]") {
    // unseen3 t09 (dlib), unseen10 t12 (sageattention), unseen14 t12 (pycuda): sdists built at
    // install with the image's nvcc, so a newer release is still the base's CUDA.
    const std::string devel = "FROM nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04\n";
    for (const char* install : {"dlib", "pycuda", "sageattention --no-build-isolation"}) {
        CAPTURE(install);
        CHECK(lint_ids(devel + "RUN pip install " + install + "\n", "CUVL03").empty());
    }
    // flash-attn's setup.py fetches a prebuilt wheel for torch's CUDA: it is still reported.
    CHECK(lint_ids(devel + "RUN pip install flash-attn --no-build-isolation\n", "CUVL03").size() ==
          1);
}
