// Issue 25, the classes the fourth unseen corpus's tuning part showed
// (bench/lint_corpus/unseen4/README.md), each as a snippet in the pattern of the public
// file, with the cases that must stay silent.
#include <catch2/catch.hpp>

#include "checks/lint_test_support.hpp"

using namespace cuvet;
using cuvet::test::lint_ids;

TEST_CASE("CUVL14 reads the installs of a stage whose environment ships", "[lint][facts][CUVL14]") {
    // unseen4 t09 (uv sync into a venv) and t23 (pip -r into a conda env): the final stage
    // only copies the environment the builder stage filled.
    auto found = lint_ids(
        "FROM nvidia/cuda:12.9.1-cudnn-runtime-ubuntu24.04 AS builder\n"
        "COPY pyproject.toml uv.lock ./\n"
        "RUN uv sync --frozen --no-dev --extra cuda\n"
        "FROM nvidia/cuda:12.9.1-cudnn-runtime-ubuntu24.04\n"
        "COPY --from=builder /app/.venv /app/.venv\n",
        "CUVL14");
    REQUIRE(found.size() == 1);
    CHECK(found[0].locations.at(0).line == 3);
    found = lint_ids(
        "FROM nvidia/cuda:11.1.1-base-ubuntu18.04 AS base\n"
        "FROM base AS builder\n"
        "RUN /opt/conda/bin/conda create -y -n esp python=3.7\n"
        "COPY requirements_gpu.txt /app\n"
        "RUN pip install --no-cache-dir -r requirements_gpu.txt\n"
        "FROM base AS runner\n"
        "COPY --from=builder /opt/conda/envs/esp/lib /opt/conda/envs/esp/lib\n",
        "CUVL14");
    REQUIRE(found.size() == 1);
    CHECK(found[0].locations.at(0).line == 5);
    // A copied model file brings no environment.
    CHECK(lint_ids("FROM nvidia/cuda:12.9.1-cudnn-runtime-ubuntu24.04 AS builder\n"
                   "RUN pip install -r requirements.txt && python export.py\n"
                   "FROM nvidia/cuda:12.9.1-cudnn-runtime-ubuntu24.04\n"
                   "COPY --from=builder /models/model.onnx /models/\n",
                   "CUVL14")
              .empty());
}

TEST_CASE("a project script that names the framework it builds is an unreadable install",
          "[lint][facts][CUVL14]") {
    // unseen4 t21 (docker/inference-engine-vllm): vLLM comes only from ./build-vllm.sh.
    auto found = lint_ids(
        "FROM nvidia/cuda:12.9.0-devel-ubuntu24.04\n"
        "COPY scripts/build-vllm.sh build-vllm.sh\n"
        "RUN ./build-vllm.sh cuda\n",
        "CUVL14");
    REQUIRE(found.size() == 1);
    CHECK(found[0].locations.at(0).line == 3);
    // A script that names no framework, or one that downloads a model, is not one.
    for (const std::string run : {"./build-docs.sh", "bash download_torch_weights.sh"}) {
        INFO(run);
        CHECK(lint_ids("FROM nvidia/cuda:12.9.0-runtime-ubuntu24.04\nRUN " + run + "\n", "CUVL14")
                  .empty());
    }
}

TEST_CASE("a compiler asked for its version compiles nothing", "[lint][CUVL07]") {
    // unseen4 t13 (khiemauto/InsightFace): a devel final stage that only prints nvcc's release.
    const std::string from = "FROM nvidia/cuda:11.1.1-cudnn8-devel-ubuntu18.04\n";
    const std::string wheels =
        "RUN pip install torch==1.7.1+cu110 -f "
        "https://download.pytorch.org/whl/torch_stable.html\n";
    CHECK(lint_ids(from + "RUN nvcc --version\nRUN nvcc -V\n" + wheels, "CUVL07").size() == 1);
    CHECK(lint_ids(from + "RUN nvcc -o kernel kernel.cu\n" + wheels, "CUVL07").empty());
}

TEST_CASE("an x.y nvidia/cuda tag of a release with x.y.z tags is gone", "[lint][CUVL09]") {
    // unseen4 t13: NVIDIA deletes a release's tags once an update of it is out.
    auto found = lint_ids("FROM nvidia/cuda:11.1-cudnn8-devel-ubuntu18.04\n", "CUVL09");
    REQUIRE(found.size() == 1);
    CHECK_THAT(found[0].fix, Catch::Contains("11.1.1-cudnn8-devel-ubuntu18.04"));
    // The x.y.z tag itself still exists.
    CHECK(lint_ids("FROM nvidia/cuda:11.1.1-cudnn8-devel-ubuntu18.04\n", "CUVL09").empty());
}

TEST_CASE("a CUDA package name completed by the shell is a CUDA build", "[lint][facts][CUVL03]") {
    // unseen4 t14 (justusschock/lightning_dev_docker): bagua-cuda$CUDA_VERSION_BAGUA.
    auto found = lint_ids(
        "FROM nvidia/cuda:11.3.1-cudnn8-devel-ubuntu20.04\n"
        "RUN CUDA_VERSION_BAGUA=113 && \\\n"
        "    pip install \"bagua-cuda$CUDA_VERSION_BAGUA\"\n",
        "CUVL03");
    REQUIRE(found.size() == 1);
    CHECK_THAT(found[0].message, Catch::Contains("bagua-cuda"));
    CHECK(lint_ids("FROM nvidia/cuda:11.3.1-cudnn8-devel-ubuntu20.04\n"
                   "RUN pip install \"bagua-cuda${CUDA_VERSION_BAGUA}==0.9.2\"\n",
                   "CUVL03")
              .empty());
}

TEST_CASE("a framework wheel rebuilt by a third party is not the official build",
          "[lint][CUVL01]") {
    // unseen4 t05 (etheleon/ml-prototyping-docker): TensorFlow 1.4.1 rebuilt for CUDA 9 by
    // github.com/mind/wheels; the official 1.4.1 is a CUDA 8 build.
    const std::string url =
        "https://github.com/mind/wheels/releases/download/tf1.4.1-gpu-cuda9/"
        "tensorflow-1.4.1-cp36-cp36m-linux_x86_64.whl";
    CHECK(lint_ids("FROM nvidia/cuda:9.0-cudnn7-devel-ubuntu16.04\nRUN pip install " + url + "\n",
                   "CUVL01")
              .empty());
    // Its URL still says which CUDA: on a CUDA 10 base that is another major.
    CHECK(lint_ids("FROM nvidia/cuda:10.0-cudnn7-devel-ubuntu16.04\nRUN pip install " + url + "\n",
                   "CUVL01")
              .size() == 1);
    // The official wheel of the same release is judged by the release table.
    CHECK(lint_ids("FROM nvidia/cuda:9.0-cudnn7-devel-ubuntu16.04\n"
                   "RUN pip install https://storage.googleapis.com/tensorflow/linux/gpu/"
                   "tensorflow_gpu-1.4.1-cp36-cp36m-linux_x86_64.whl\n",
                   "CUVL01")
              .size() == 1);
}
