// GPU Python packages of the LLM and inference stack that rules/python_packages.json had no
// row for (issue 37's catalog drive, slice B): each row turns an unpinned install into
// CUVL03, or a package that compiles with nvcc into a reason for a -devel base (CUVL07).
#include <catch2/catch.hpp>

#include "checks/lint_test_support.hpp"

using namespace cuvet;
using cuvet::test::lint_ids;

namespace {

const std::string cuda128_runtime = "FROM nvidia/cuda:12.8.1-cudnn-runtime-ubuntu24.04\n";
// A devel final stage with torch from its CUDA index: CUVL07 unless something compiles.
const std::string cuda128_devel =
    "FROM nvidia/cuda:12.8.1-cudnn-devel-ubuntu22.04\n"
    "RUN pip install torch==2.7.0 --index-url https://download.pytorch.org/whl/cu128\n";

std::size_t unpinned(const std::string& install) {
    return lint_ids(cuda128_runtime + "RUN " + install + "\n", "CUVL03").size();
}

std::size_t devel_warnings(const std::string& install) {
    return lint_ids(cuda128_devel + "RUN " + install + "\n", "CUVL07").size();
}

}  // namespace

TEST_CASE("CUVL03 reports MLX's CUDA backend installed without a version",
          "[lint][lint-catalog-b][CUVL03]") {
    // mlx[cuda] pulls mlx-cuda (v0.26.5..v0.30.0) or mlx-cuda-12, pinned to mlx's release.
    auto found = lint_ids(cuda128_runtime + "RUN pip install \"mlx[cuda]\"\n", "CUVL03");
    REQUIRE(found.size() == 1);
    CHECK(found[0].message.find("mlx") != std::string::npos);
    CHECK(unpinned("pip install \"mlx[cuda13]\"") == 1);
    CHECK(unpinned("pip install mlx-cuda-12") == 1);
    CHECK(unpinned("pip install mlx-cuda") == 1);
    CHECK(unpinned("pip install \"mlx[cuda12]==0.32.1\"") == 0);
    // The frontend alone, or its CPU backend, carries no CUDA.
    CHECK(unpinned("pip install mlx") == 0);
    CHECK(unpinned("pip install \"mlx[cpu]\"") == 0);
}

TEST_CASE("FlashAttention 3 compiles with nvcc, FlashAttention 4 does not",
          "[lint][lint-catalog-b][CUVL07][CUVL03]") {
    // hopper/setup.py builds flash_attn_3 with the toolkit (CUDA 12.3 or newer).
    CHECK(devel_warnings("pip install flash-attn-3==3.0.0") == 0);
    // flash-attn-4 is Python: CuTe DSL compiles its kernels at run time without nvcc.
    CHECK(devel_warnings("pip install flash-attn-4==4.0.0b27") == 1);
    CHECK(unpinned("pip install \"flash-attn-4[cu13]\"") == 1);
    CHECK(unpinned("pip install flash-attn-4==4.0.0b27") == 0);
    // Nothing else compiles here either.
    CHECK(devel_warnings("pip install numpy==1.26.4") == 1);
}

TEST_CASE("CUVL03 reports LMDeploy, Triton, Torch-TensorRT and torchao without a version",
          "[lint][lint-catalog-b][CUVL03]") {
    // Each is compiled for one CUDA (and torch) release: a rebuild moves them.
    CHECK(unpinned("pip install lmdeploy") == 1);
    CHECK(unpinned("pip install lmdeploy==0.16.0") == 0);
    // Triton bundles the ptxas of one CUDA release; torch pins the triton it needs.
    CHECK(unpinned("pip install triton") == 1);
    CHECK(unpinned("pip install triton==3.4.0") == 0);
    CHECK(unpinned("pip install torch-tensorrt") == 1);
    CHECK(unpinned("pip install torchao") == 1);
    CHECK(unpinned("pip install torchao==0.13.0") == 0);
}

TEST_CASE("CUVL03 reports Unsloth only with a CUDA extra", "[lint][lint-catalog-b][CUVL03]") {
    // unsloth[cu121-torch240] pulls bitsandbytes and cu121 xformers wheels by URL.
    CHECK(unpinned("pip install \"unsloth[cu121-torch240]\"") == 1);
    CHECK(unpinned("pip install \"unsloth[cu128-ampere-torch280]\"") == 1);
    // Plain unsloth is its CLI.
    CHECK(unpinned("pip install unsloth") == 0);
}

TEST_CASE("CUVL07 counts SageAttention, GPTQModel and ExLlamaV3 installs as compiling",
          "[lint][lint-catalog-b][CUVL07]") {
    // SageAttention 2.x builds its kernels with nvcc; GPTQModel JIT-compiles them from 6.1.0;
    // PyPI's exllamav3 has no prebuilt extension.
    CHECK(devel_warnings("pip install sageattention==2.2.0") == 0);
    CHECK(devel_warnings("pip install gptqmodel==7.3.4") == 0);
    CHECK(devel_warnings("pip install exllamav3==0.0.6") == 0);
    CHECK(unpinned("pip install gptqmodel") == 1);
}

TEST_CASE("Model Optimizer and Megatron Core bring CUDA packages only through extras",
          "[lint][lint-catalog-b][CUVL03][CUVL07]") {
    // nvidia-modelopt[onnx] pins onnxruntime-gpu~=1.22.0 and cupy-cuda12x; [all] includes it.
    CHECK(unpinned("pip install -U \"nvidia-modelopt[all]\"") == 1);
    CHECK(unpinned("pip install nvidia-modelopt") == 0);
    // Its hf extra pulls DeepSpeed, whose ops compile with nvcc.
    CHECK(devel_warnings("pip install \"nvidia-modelopt[hf]==0.39.0\"") == 0);
    // megatron-core[dev] pulls mamba-ssm, causal-conv1d and flashinfer-python.
    CHECK(devel_warnings("pip install \"megatron-core[dev]==0.14.0\"") == 0);
    CHECK(devel_warnings("pip install megatron-core==0.14.0") == 1);
    CHECK(unpinned("pip install \"megatron-core[lts]\"") == 1);
    CHECK(unpinned("pip install megatron-core") == 0);
}

TEST_CASE("CUVL03 reports vLLM's and SGLang's kernel packages, ORT training and WhisperX",
          "[lint][lint-catalog-b][CUVL03]") {
    // vllm-flash-attn and sgl-kernel are compiled for one torch release and CUDA.
    CHECK(unpinned("pip install vllm-flash-attn") == 1);
    CHECK(unpinned("pip install sgl-kernel") == 1);
    CHECK(unpinned("pip install sgl-kernel==0.3.9.post2") == 0);
    CHECK(unpinned("pip install onnxruntime-training") == 1);
    // WhisperX leaves ctranslate2 and faster-whisper, and so their CUDA, to pip.
    CHECK(unpinned("pip install whisperx") == 1);
    CHECK(unpinned("pip install whisperx==3.8.6") == 0);
}
