// The classes unseen11's held-back part showed that are the checks' to model, not the rules'
// data (bench/lint_corpus/unseen11/README.md, scored once before these changes).
#include <catch2/catch.hpp>

#include "checks/lint_test_support.hpp"

using namespace cuvet;
using cuvet::test::lint_ids;

TEST_CASE("CUVL14 sees a framework wheel that a find picks from its builder's folder",
          "[lint][lint-corpus11-held][CUVL14]") {
    // unseen11 h20: the wheel's name is in the folder a build stage filled, not in the command.
    const std::string builder =
        "FROM nvidia/cuda:12.8.1-cudnn-devel-ubuntu24.04 AS tensorflow-wheel\n"
        "RUN mkdir /tensorflow-wheel && cp /cache/tf.whl /tensorflow-wheel/\n"
        "FROM ubuntu:24.04\n";
    const std::string install =
        "RUN wheel=\"$(find /tmp/tensorflow-wheel -name '*.whl' -print -quit)\" "
        "&& python3 -m pip install \"${wheel}[and-cuda]\"\n"
        "RUN pip install -r requirements-gpu.txt\n";
    CHECK(lint_ids(builder +
                       "COPY --from=tensorflow-wheel /tensorflow-wheel /tmp/tensorflow-wheel\n" +
                       install,
                   "CUVL14")
              .empty());
    // A folder that names no framework hides the stack as before.
    const std::string hidden =
        "FROM ubuntu:24.04 AS wheels\nRUN mkdir /dist\nFROM ubuntu:24.04\n"
        "COPY --from=wheels /dist /tmp/dist\n"
        "RUN wheel=\"$(find /tmp/dist -name '*.whl' -print -quit)\" "
        "&& python3 -m pip install \"${wheel}\"\n"
        "RUN pip install -r requirements-gpu.txt\n";
    CHECK(lint_ids(hidden, "CUVL14").size() == 1);
}

TEST_CASE("CUVL14 reads a command that asks for the GPU as GPU intent",
          "[lint][lint-corpus11-held][CUVL14]") {
    // unseen11 h31: a slim base, torch only from uv.lock, and a check that it is a CUDA build.
    const std::string base =
        "FROM python:3.12-slim\nCOPY pyproject.toml uv.lock ./\nRUN uv sync --frozen --no-dev\n";
    CHECK(lint_ids(base + "RUN python -c \"import torch; assert torch.version.cuda == '13.0'\"\n",
                   "CUVL14")
              .size() == 1);
    // Without it nothing says GPU.
    CHECK(lint_ids(base + "RUN python -c \"import torch\"\n", "CUVL14").empty());
}

TEST_CASE("CUVL01 reports a wheel built against another cuDNN in a build stage",
          "[lint][lint-corpus11-held][CUVL01]") {
    // unseen11 h19: ONNX Runtime built with apt libcudnn8-dev, installed on a cuDNN 9 base.
    const std::string builder =
        "FROM nvidia/cuda:12.8.1-devel-ubuntu22.04 AS ort-builder\n"
        "RUN apt-get update && apt-get install -y libcudnn8=8.9.7.29-1+cuda12.2 "
        "libcudnn8-dev=8.9.7.29-1+cuda12.2\n"
        "RUN ./build.sh --use_cuda --cudnn_home /usr --build_wheel "
        "&& cp build/Linux/Release/dist/onnxruntime_gpu*.whl /opt/ort_custom.whl\n";
    const std::string install =
        "COPY --from=ort-builder /opt/ort_custom.whl /opt/ort_custom.whl\n"
        "RUN pip install /opt/ort_custom.whl\n";
    auto found = lint_ids(builder + "FROM nvidia/cuda:12.8.1-cudnn-runtime-ubuntu22.04\n" + install,
                          "CUVL01");
    REQUIRE(found.size() == 1);
    CHECK(found[0].message.find("cuDNN 8") != std::string::npos);
    // On a base with the builder's cuDNN 8 it loads.
    CHECK(lint_ids(builder + "FROM nvidia/cuda:12.2.2-cudnn8-runtime-ubuntu22.04\n" + install,
                   "CUVL01")
              .empty());
    // So it does where the installing stage adds cuDNN 8 itself.
    CHECK(lint_ids(builder + "FROM nvidia/cuda:12.8.1-runtime-ubuntu22.04\n" +
                       "RUN apt-get update && apt-get install -y libcudnn8=8.9.7.29-1+cuda12.2\n" +
                       install,
                   "CUVL01")
              .empty());
}

TEST_CASE("CUVL03 reads an extra that selects a CUDA build as CUDA-dependent",
          "[lint][lint-corpus11-held][CUVL03]") {
    // unseen11 h07 (mlx[cuda]): a package the rules had no row for, whose extra says the install
    // is a CUDA build. The package name here is made up, so only the extra can decide. An extra
    // that also names the CUDA release ([cu13]) fixes it: lint_stable_unpinned_test.
    const std::string base = "FROM nvidia/cuda:12.8.1-runtime-ubuntu24.04\n";
    CHECK(lint_ids(base + "RUN pip install \"made-up-kernels[cuda]\"\n", "CUVL03").size() == 1);
    CHECK(lint_ids(base + "RUN pip install \"made-up-kernels[cuda]==1.2.0\"\n", "CUVL03").empty());
    // Extras that only look alike stay quiet: [cubic] is no CUDA build.
    CHECK(lint_ids(base + "RUN pip install \"made-up-kernels[cubic]\"\n", "CUVL03").empty());
    CHECK(lint_ids(base + "RUN pip install \"made-up-kernels[cli]\"\n", "CUVL03").empty());
}
