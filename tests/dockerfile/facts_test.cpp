#include "cuvet/dockerfile/facts.hpp"

#include <catch2/catch.hpp>

#include "dockerfile/stage_queries.hpp"

using namespace cuvet::dockerfile;
using cuvet::test::find;

namespace {

Facts facts_of(const std::string& text) {
    auto df = parse(text);
    auto build = analyze(df);
    return extract_facts(std::move(df), std::move(build));
}

}  // namespace

TEST_CASE("base image tags give CUDA, cuDNN, flavor and distro", "[dockerfile][facts]") {
    auto b = read_base("nvidia/cuda:12.1.1-cudnn8-runtime-ubuntu22.04");
    CHECK(b.kind == BaseKind::nvidia_cuda);
    CHECK(b.cuda == "12.1.1");
    CHECK(b.cudnn_token == "cudnn8");
    CHECK(b.cudnn_major == 8);
    CHECK(b.flavor == "runtime");
    CHECK(b.distro == "ubuntu22.04");
    b = read_base("docker.io/nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04");
    CHECK(b.cudnn_token == "cudnn");
    CHECK(b.cudnn_major == 0);
    CHECK(b.flavor == "devel");
    b = read_base("nvidia/cuda:11.8.0-base-ubuntu20.04");
    CHECK(b.flavor == "base");
    CHECK(b.cudnn_token.empty());
    b = read_base("pytorch/pytorch:2.1.0-cuda12.1-cudnn8-runtime");
    CHECK(b.kind == BaseKind::framework_cuda_tag);
    CHECK(b.cuda == "12.1");
    CHECK(b.framework_version == "2.1.0");
    b = read_base("tensorflow/tensorflow:2.15.0-gpu");
    CHECK(b.kind == BaseKind::framework_release);
    CHECK(b.framework_version == "2.15.0");
    b = read_base("nvcr.io/nvidia/pytorch:24.01-py3");
    CHECK(b.kind == BaseKind::ngc);
    CHECK(b.ngc_release == "24.01");
    CHECK(read_base("ubuntu:22.04").image.repository == "library/ubuntu");
    CHECK(read_base("${BASE}").kind == BaseKind::unresolved);
    CHECK(cuda_from_tag("cu121") == "12.1");
    CHECK(cuda_from_tag("cu92") == "9.2");
    CHECK(cuda_from_tag("cu130") == "13.0");
}

TEST_CASE("pip, conda and apt installs are found however written", "[dockerfile][facts]") {
    auto facts = facts_of(
        "FROM nvidia/cuda:12.1.1-cudnn8-runtime-ubuntu22.04\n"
        "ARG TORCH=2.1.0\n"
        "RUN python3 -m pip install --no-cache-dir torch==${TORCH} torchvision \\\n"
        "      --index-url https://download.pytorch.org/whl/cu118 && \\\n"
        "    pip install 'jax[cuda12_pip]' cupy-cuda12x -r requirements.txt\n"
        "RUN bash -c \"pip3 install tensorflow[and-cuda]==2.15.0 nvidia-cudnn-cu12==8.9.4.25\"\n"
        "RUN apt-get update && apt-get install -y --no-install-recommends \\\n"
        "      libcudnn8=8.9.2.26-1+cuda12.1 cuda-compat-12-4 libcudnn9-cuda-12 \\\n"
        " && apt-mark hold libcudnn8\n"
        "RUN conda install -y -c pytorch -c nvidia pytorch=2.1.0 pytorch-cuda=12.1 cudnn\n"
        "RUN [\"sh\", \"-c\", \"pip install onnxruntime-gpu==1.17.1 "
        "paddlepaddle-gpu==2.6.1.post120\"]\n");
    const auto& s = facts.final_stage();
    const Package* torch = find(s, "torch");
    REQUIRE(torch);
    CHECK(torch->version == "2.1.0");
    CHECK(torch->pinned);
    CHECK(torch->cuda == "11.8");
    CHECK(torch->line == 3);
    CHECK(torch->end_line == 5);
    CHECK_FALSE(find(s, "torchvision")->pinned);
    CHECK(find(s, "jax")->cuda == "12");
    CHECK(find(s, "cupy-cuda12x")->cuda == "12");
    REQUIRE(s.requirements.size() == 1);
    CHECK(s.requirements[0].path == "requirements.txt");
    CHECK(find(s, "tensorflow")->extras == "and-cuda");
    CHECK(find(s, "nvidia-cudnn-cu12")->cuda == "12");
    const Package* cudnn_apt = find(s, "libcudnn8");
    REQUIRE(cudnn_apt);
    CHECK(cudnn_apt->manager == Manager::apt);
    CHECK(cudnn_apt->pinned);
    CHECK(cudnn_apt->cuda == "12.1");
    CHECK(find(s, "cuda-compat-12-4")->cuda == "12.4");
    CHECK(find(s, "libcudnn9-cuda-12")->cuda == "12");
    REQUIRE(s.holds.size() == 1);
    CHECK(s.holds[0].package == "libcudnn8");
    CHECK(find(s, "pytorch-cuda")->cuda == "12.1");
    CHECK(find(s, "pytorch")->manager == Manager::conda);
    CHECK_FALSE(find(s, "cudnn")->pinned);
    CHECK(s.conda_channels == std::vector<std::string>{"pytorch", "nvidia"});
    CHECK(find(s, "onnxruntime-gpu")->version == "1.17.1");
    CHECK(find(s, "paddlepaddle-gpu")->cuda == "12.0");
}

TEST_CASE("stages inherit facts from their parent and from copied environments",
          "[dockerfile][facts]") {
    auto facts = facts_of(
        "FROM nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04 AS build\n"
        "RUN pip install --target /opt/venv torch==2.4.0\n"
        "FROM build AS dev\n"
        "RUN pip install jupyter\n"
        "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n"
        "COPY --from=build /opt/venv /opt/venv\n"
        "COPY --from=build /model.bin /model.bin\n");
    REQUIRE(facts.stages.size() == 3);
    CHECK(facts.stages[1].parent == std::optional<std::size_t>(0));
    CHECK(facts.stages[1].base.flavor == "devel");
    CHECK(find(facts.stages[1], "torch")->inherited);
    const auto& final_stage = facts.final_stage();
    CHECK(final_stage.base.flavor == "runtime");
    REQUIRE(find(final_stage, "torch"));
    CHECK(find(final_stage, "torch")->inherited);
}
