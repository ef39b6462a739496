// Issue 25, the mistakes the fourth unseen corpus's held-back part showed when it was
// scored once (bench/lint_corpus/unseen4/README.md), each as a snippet in the pattern of
// the public file, with the cases that must keep their finding.
#include <catch2/catch.hpp>

#include "checks/lint_test_support.hpp"

using namespace cuvet;
using cuvet::test::lint_ids;

TEST_CASE("CUVL10 does not judge an unqualified base it does not know", "[lint][CUVL10]") {
    // unseen4 h06 (Lab41/attalos): FROM l41-nvidia-base, the project's own CUDA image.
    const std::string tf =
        "RUN pip install --upgrade https://storage.googleapis.com/tensorflow/linux/gpu/"
        "tensorflow-0.10.0rc0-cp27-none-linux_x86_64.whl\n";
    CHECK(lint_ids("FROM l41-nvidia-base\n" + tf, "CUVL10").empty());
    // Docker's official images carry no CUDA: there it is a finding.
    CHECK(lint_ids("FROM ubuntu:16.04\n" + tf, "CUVL10").size() == 1);
    CHECK(lint_ids("FROM python:2.7\n" + tf, "CUVL10").size() == 1);
}

TEST_CASE("CUVL14 sees a framework wheel the Dockerfile builds itself", "[lint][CUVL14]") {
    // unseen4 h18 (DEKHTIARJonathan/GPU_DockerFiles): TensorFlow built with bazel, installed
    // from /opt/tensorflow/pip_pkg/tensorflow_*.whl.
    CHECK(lint_ids("FROM nvidia/cuda:10.0-cudnn7-devel-ubuntu18.04\n"
                   "RUN bazel build //tensorflow/tools/pip_package:build_pip_package && \\\n"
                   "    bazel-bin/tensorflow/tools/pip_package/build_pip_package /opt/pkg && \\\n"
                   "    pip install /opt/pkg/tensorflow_*.whl\n",
                   "CUVL14")
              .empty());
    // A wheel of some other project stays unreadable.
    CHECK(lint_ids("FROM nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04\n"
                   "COPY dist/ /dist/\n"
                   "RUN pip install /dist/myapp-*.whl\n",
                   "CUVL14")
              .size() == 1);
}

TEST_CASE("COPY --from sources are expanded before they are judged", "[lint][facts][CUVL14]") {
    // unseen4 h04 (MagnusS0/HuginnHears): COPY --from=build ${VIRTUAL_ENV} ${VIRTUAL_ENV}.
    auto found = lint_ids(
        "FROM nvidia/cuda:12.1.1-devel-ubuntu22.04 AS build\n"
        "COPY pyproject.toml ./\n"
        "RUN CMAKE_ARGS=\"-DLLAMA_CUBLAS=on\" poetry install --without dev --no-root\n"
        "FROM nvidia/cuda:12.1.1-runtime-ubuntu22.04 AS runtime\n"
        "ENV VIRTUAL_ENV=/huginn-hears/.venv\n"
        "COPY --from=build ${VIRTUAL_ENV} ${VIRTUAL_ENV}\n",
        "CUVL14");
    REQUIRE(found.size() == 1);
    CHECK(found[0].locations.at(0).line == 3);
}

TEST_CASE("a project script run by its path counts as a build", "[lint][CUVL07]") {
    // unseen4 h25 (benborder/libtorch-docker): a devel development image set up by the
    // project's scripts.
    const std::string from = "FROM nvidia/cuda:12.8.1-cudnn-devel-ubuntu24.04\n";
    CHECK(lint_ids(from + "COPY build /tmp/build\nRUN /tmp/build/setup-build.bash\n", "CUVL07")
              .empty());
    CHECK(lint_ids(from + "RUN pip install torch==2.7.1\n", "CUVL07").size() == 1);
}

TEST_CASE("CUVL03 reports an unpinned torch-scatter", "[lint][CUVL03]") {
    // unseen4 h08 (nvidia-china-sae/WholeGraph): compiled here against torch and the toolkit.
    const std::string from = "FROM nvcr.io/nvidia/pytorch:20.10-py3\n";
    CHECK(lint_ids(from + "RUN FORCE_CUDA=1 pip install torch-scatter torch-sparse\n", "CUVL03")
              .size() == 1);
    CHECK(lint_ids(from + "RUN FORCE_CUDA=1 pip install torch-scatter==2.0.9\n", "CUVL03").empty());
}
