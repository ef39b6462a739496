// Rows rules/python_packages.json gained for classic ML, audio and CUDA-library wheels
// (issue 37's catalog drive, slice C): what each row changes in lint's verdict.
#include <catch2/catch.hpp>

#include "checks/lint_test_support.hpp"

using namespace cuvet;
using cuvet::test::lint_ids;

namespace {

const std::string cuda124_runtime = "FROM nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04\n";
const std::string cuda124_devel = "FROM nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04\n";

}  // namespace

TEST_CASE("CUVL03 leaves XGBoost and CatBoost unpinned: their GPU use is opt-in",
          "[lint][lint-catalog-c][CUVL03]") {
    // PyPI's xgboost and catboost carry CUDA builds (xgboost's default wheel moved to CUDA 13 in
    // 3.4.0), but both run on the CPU unless the code sets device="cuda" / task_type="GPU": the
    // rows' gpu_optional. A rebuild that moves their CUDA leaves CPU use as it was.
    for (const char* install : {"xgboost", "\"xgboost>=2.0\"", "xgboost-cu12", "catboost pandas",
                                "xgboost==3.3.0", "xgboost-cpu"}) {
        CAPTURE(install);
        CHECK(lint_ids(cuda124_runtime + "RUN pip install " + install + "\n", "CUVL03").empty());
    }
    // The field, not the role, decides: an extension without it is still reported.
    CHECK(lint_ids(cuda124_runtime + "RUN pip install catboost cupy-cuda12x\n", "CUVL03").size() ==
          1);
}

TEST_CASE("CUVL03 reports k2 without a version", "[lint][lint-catalog-c][CUVL03]") {
    // k2's CUDA wheels are one per torch release and CUDA (+cuda12.1.torch2.2.1).
    const std::string torch =
        cuda124_runtime +
        "RUN pip install torch==2.2.1 --index-url https://download.pytorch.org/whl/cu121\n";
    CHECK(
        lint_ids(torch + "RUN pip install k2 -f https://k2-fsa.github.io/k2/cuda.html\n", "CUVL03")
            .size() == 1);
    CHECK(lint_ids(torch + "RUN pip install k2==1.24.4.dev20240301+cuda12.1.torch2.2.1 "
                           "-f https://k2-fsa.github.io/k2/cuda.html\n",
                   "CUVL03")
              .empty());
}

TEST_CASE("CUVL07 counts a dlib install as compiling CUDA code", "[lint][lint-catalog-c][CUVL07]") {
    // dlib is an sdist whose CMake build compiles CUDA code when nvcc and cuDNN are there: a
    // -devel final stage is deliberate.
    CHECK(lint_ids(cuda124_devel + "RUN pip install dlib==19.24.6\n", "CUVL07").empty());
    // Without it the devel stage compiles nothing.
    CHECK(lint_ids(cuda124_devel + "RUN pip install numpy==1.26.4\n", "CUVL07").size() == 1);
    // Unpinned, each rebuild compiles the newest release, but against the image's own toolkit
    // (source_only): no release brings another CUDA, so CUVL03 has nothing to say
    // (lint_stable_unpinned_test).
    CHECK(lint_ids(cuda124_devel + "RUN pip install dlib\n", "CUVL03").empty());
}

TEST_CASE("CUVL03 reports CUDA bindings and CUDA 13's unsuffixed NVIDIA wheels without a version",
          "[lint][lint-catalog-c][CUVL03]") {
    const std::string base = "FROM nvidia/cuda:13.0.1-runtime-ubuntu24.04\n";
    // cuda-bindings' release is the CUDA it binds.
    CHECK(lint_ids(base + "RUN pip install cuda-bindings\n", "CUVL03").size() == 1);
    CHECK(lint_ids(base + "RUN pip install \"cuda-bindings<14\"\n", "CUVL03").empty());
    // cuda-core pulls a CUDA's bindings only through a cuNN extra.
    CHECK(lint_ids(base + "RUN pip install \"cuda-core[cu13]\"\n", "CUVL03").size() == 1);
    CHECK(lint_ids(base + "RUN pip install cuda-core\n", "CUVL03").empty());
    // nvidia-cublas states no CUDA in its name: the release decides it.
    auto found =
        lint_ids(base + "RUN pip install nvidia-cublas nvidia-cufft nvidia-nvjitlink\n", "CUVL03");
    REQUIRE(found.size() == 1);
    CHECK(found[0].message.find("nvidia-cufft") != std::string::npos);
    CHECK(lint_ids(base + "RUN pip install nvidia-cublas==13.0.0.19\n", "CUVL03").empty());
    // A -cuNN name fixes the CUDA major already.
    CHECK(lint_ids(base + "RUN pip install nvidia-nccl-cu13\n", "CUVL03").empty());
}
