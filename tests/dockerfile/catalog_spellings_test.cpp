// The CUDA a pip package states by its name or version tail, read through the framework
// catalog (rules/frameworks.json): MXNet's and CuPy's per-minor names, JAX's plugin names,
// jaxlib's and PaddlePaddle's version tails.
#include <catch2/catch.hpp>

#include "cuvet/dockerfile/facts.hpp"
#include "dockerfile/stage_queries.hpp"

using namespace cuvet::dockerfile;
using cuvet::test::find;

TEST_CASE("pip CUDA from the catalog's spellings", "[dockerfile][catalog]") {
    auto df = parse(
        "FROM nvidia/cuda:11.3.1-cudnn8-devel-ubuntu20.04\n"
        "RUN pip install mxnet-cu112 mxnet_cu101mkl==1.6.0 cupy-cuda102 jax-cuda12-plugin "
        "paddlepaddle-gpu==2.1.1.post101 numpy\n"
        "RUN pip install jaxlib==0.4.20+cuda12.cudnn89 -f "
        "https://storage.googleapis.com/jax-releases/jax_cuda_releases.html\n");
    auto build = analyze(df);
    auto facts = extract_facts(std::move(df), std::move(build));
    const auto& s = facts.final_stage();
    REQUIRE(find(s, "mxnet-cu112"));
    CHECK(find(s, "mxnet-cu112")->cuda == "11.2");
    CHECK(find(s, "mxnet-cu112")->cuda_evidence == "package name mxnet-cu112");
    REQUIRE(find(s, "mxnet-cu101mkl"));
    CHECK(find(s, "mxnet-cu101mkl")->cuda == "10.1");
    CHECK(find(s, "cupy-cuda102")->cuda == "10.2");
    CHECK(find(s, "jax-cuda12-plugin")->cuda == "12");
    const Package* paddle = find(s, "paddlepaddle-gpu");
    REQUIRE(paddle);
    CHECK(paddle->cuda == "10.1");
    CHECK(paddle->cuda_evidence == "version suffix .post101");
    const Package* jaxlib = find(s, "jaxlib");
    REQUIRE(jaxlib);
    CHECK(jaxlib->cuda == "12");
    CHECK(jaxlib->cuda_evidence == "local version +cuda12.cudnn89");
    CHECK(find(s, "numpy")->cuda.empty());
}
