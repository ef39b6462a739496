// The rows issue 37 added for late 2026 (rules/SCHEMA.md): each answers the lookup the checks
// make, and what no citable source gave stays unknown rather than borrowed from a neighbour.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "rules/rules_fixtures.hpp"

using namespace cuvet::test;

TEST_CASE("onnxruntime-gpu: CUDA 13 from 1.27, cuDNN optional from 1.28", "[rules][rules37]") {
    const auto* ort126 = db().framework_build("onnxruntime", v("1.26.0"), "");
    const auto* ort127 = db().framework_build("onnxruntime", v("1.27.0"), "");
    const auto* ort128 = db().framework_build("onnxruntime", v("1.28.1"), "");
    REQUIRE(ort126);
    REQUIRE(ort127);
    REQUIRE(ort128);
    CHECK(ort126->cuda->major() == 12);
    CHECK(ort127->cuda->major() == 13);
    CHECK(ort128->cuda->major() == 13);
    CHECK_FALSE(ort127->cudnn_optional);
    CHECK(ort128->cudnn_optional);
    // The deprecated CUDA 12 build of 1.28, from Microsoft's feed only.
    const auto* ort128_cu12 = db().framework_build("onnxruntime", v("1.28.0"), "cuda12");
    REQUIRE(ort128_cu12);
    CHECK(ort128_cu12->cudnn_optional);
    CHECK(ort128_cu12->index.find("onnxruntime-cuda-12") != std::string::npos);
}

TEST_CASE(
    "onnxruntime-gpu 1.29 and 1.30: CUDA 13 on PyPI, 1.29's CUDA 12 build on Microsoft's feed",
    "[rules][rules37]") {
    const auto* ort129 = db().framework_build("onnxruntime", v("1.29.0"), "");
    const auto* ort130 = db().framework_build("onnxruntime", v("1.30.0"), "");
    REQUIRE(ort129);
    REQUIRE(ort130);
    CHECK(ort129->cuda->major() == 13);
    CHECK(ort130->cuda->major() == 13);
    CHECK(ort129->cudnn_optional);
    // 1.28's "cuDNN optional at runtime" was not confirmed for 1.30: not carried over.
    CHECK_FALSE(ort130->cudnn_optional);
    const auto* ort129_cu12 = db().framework_build("onnxruntime", v("1.29.0"), "cuda12");
    REQUIRE(ort129_cu12);
    CHECK(ort129_cu12->cuda->major() == 12);
    CHECK(ort129_cu12->index.find("onnxruntime-cuda-12") != std::string::npos);
    // No source shows a CUDA 12 wheel of 1.30, nor any 1.31: unknown, not a neighbour's answer.
    CHECK(db().framework_build("onnxruntime", v("1.30.0"), "cuda12") == nullptr);
    CHECK(db().framework_build("onnxruntime", v("1.31.0"), "") == nullptr);
}

TEST_CASE("cudnn_optional must be a boolean", "[rules][rules37]") {
    auto table = builtin_table("frameworks.json");
    table["builds"][0]["cudnn_optional"] = "yes";
    CHECK_THAT(load_error_with("frameworks.json", table.dump()),
               Catch::Contains("/builds/0/cudnn_optional"));
}

TEST_CASE(
    "vLLM 0.28.0 to 0.31.0 pin torch 2.13.0, and 0.30.0's and 0.31.0's default wheels are CUDA 13",
    "[rules][rules37]") {
    for (const char* release : {"0.28.0", "0.29.0", "0.30.0", "0.31.0"}) {
        INFO(release);
        const auto* vllm = db().framework_build("vllm", v(release), "");
        REQUIRE(vllm);
        REQUIRE(vllm->requirement("torch"));
        CHECK(vllm->requirement("torch")->spec == "==2.13.0");
    }
    // The 0.28.0 sources name the torch pin, not the wheel's CUDA.
    CHECK_FALSE(db().framework_build("vllm", v("0.28.0"), "")->cuda);
    for (const char* release : {"0.30.0", "0.31.0"}) {
        INFO(release);
        CHECK(db().framework_build("vllm", v(release), "")->cuda->str() == "13.0");
        // The CUDA 12.9 build is a separate +cu129 wheel on the GitHub release.
        const auto* cu129 = db().framework_build("vllm", v(release), "cu129");
        REQUIRE(cu129);
        CHECK(cu129->cuda->str() == "12.9");
        CHECK_FALSE(cu129->is_default);
    }
    CHECK(db().framework_build("vllm", v("0.32.0"), "") == nullptr);
}

TEST_CASE("PaddlePaddle 3.2 cu129 is a CUDA 12.9 build with its cuDNN unknown",
          "[rules][rules37]") {
    const auto* paddle = db().framework_build("paddlepaddle", v("3.2.2"), "cu129");
    REQUIRE(paddle);
    CHECK(paddle->cuda->str() == "12.9");
    CHECK_FALSE(paddle->cudnn);
    CHECK_FALSE(paddle->is_default);
}

TEST_CASE("PaddlePaddle 3.4 has cu129 and cu130 builds, and its cu126 build stays unknown",
          "[rules][rules37]") {
    const auto* cu129 = db().framework_build("paddlepaddle", v("3.4.0"), "cu129");
    const auto* cu130 = db().framework_build("paddlepaddle", v("3.4.0"), "cu130");
    REQUIRE(cu129);
    REQUIRE(cu130);
    CHECK(cu129->cuda->str() == "12.9");
    CHECK(cu130->cuda->str() == "13.0");
    CHECK_FALSE(cu129->cudnn);
    CHECK(db().framework_build("paddlepaddle", v("3.4.0"), "cu126") == nullptr);
}

TEST_CASE("cuDNN patch releases 9.18.x and 9.19.1 have rows", "[rules][rules37]") {
    const auto* r9181 = db().cudnn_release(v("9.18.1"));
    REQUIRE(r9181);
    CHECK(r9181->builds.size() == 2);  // the cu12 and cu13 wheels 9.18.1.3
    const auto* r9191 = db().cudnn_release(v("9.19.1"));
    REQUIRE(r9191);
    REQUIRE(r9191->builds.size() == 1);
    CHECK(r9191->builds[0].cuda_major == 13);
    // Listed in the release notes, no package read: the builds stay unknown (empty).
    const auto* r9180 = db().cudnn_release(v("9.18.0"));
    REQUIRE(r9180);
    CHECK(r9180->builds.empty());
}

TEST_CASE("NGC PyTorch 26.01-26.03 and 26.07-26.09, JAX 26.04, TensorFlow 25.02 have rows",
          "[rules][rules37]") {
    const auto* pt2602 = db().ngc_container("pytorch", "26.02-py3");
    const auto* pt2609 = db().ngc_container("nvcr.io/nvidia/pytorch", "26.09-py3");
    REQUIRE(pt2602);
    REQUIRE(pt2609);
    CHECK(pt2602->cuda->str() == "13.1");
    CHECK(pt2609->cuda->str() == "13.4.1");
    CHECK(pt2609->cudnn->str() == "9.26");
    CHECK(pt2609->framework_version.empty());  // named only as "torch 2.14 NVIDIA build"
    // 26.08: NVIDIA's TensorRT-LLM script aligned with the notes gives the update (13.4.1).
    CHECK(db().ngc_container("pytorch", "26.08")->cuda->str() == "13.4.1");
    // Releases whose notes were not found: projects that ran them print the CUDA minor only.
    const std::pair<const char*, const char*> observed[] = {
        {"26.01", "13.1"}, {"26.03", "13.2"}, {"26.07", "13.3"}};
    for (const auto& [release, cuda] : observed) {
        INFO(release);
        const auto* pt = db().ngc_container("pytorch", release);
        REQUIRE(pt);
        CHECK(pt->cuda->str() == cuda);
        CHECK(pt->provenance.confidence == "secondary");
    }
    const auto* jax2604 = db().ngc_container("jax", "26.04-py3");
    REQUIRE(jax2604);
    CHECK_FALSE(jax2604->cuda);
    const auto* tf2502 = db().ngc_container("nvcr.io/nvidia/tensorflow", "25.02-tf2-py3");
    REQUIRE(tf2502);
    CHECK(tf2502->framework_version == "2.17.0");
    // Two projects quote "CUDA 12.8.0, cuDNN 9.7.1" (a third comment's 12.6 is outvoted).
    CHECK(tf2502->cuda->str() == "12.8.0");
    CHECK(tf2502->cudnn->str() == "9.7.1");
}

TEST_CASE("NGC TensorFlow 23.12-24.12 and TensorRT 25.03-25.10 rows hold what their sources say",
          "[rules][rules37]") {
    // 24.02: a copy of the release notes' contents list.
    const auto* tf2402 = db().ngc_container("tensorflow", "24.02-tf2-py3");
    REQUIRE(tf2402);
    CHECK(tf2402->framework_version == "2.15.0");
    CHECK(tf2402->cuda->str() == "12.3.2");
    CHECK(tf2402->cudnn->str() == "9.0.0.306");
    CHECK(tf2402->ships.at("tensorrt")->str() == "8.6.3");
    CHECK(tf2402->min_driver_branch->str() == "545");
    // The others name only the TensorFlow release; a CUDA without its update stays unknown.
    const std::pair<const char*, const char*> tf_only[] = {
        {"23.12", "2.14.0"}, {"24.03", "2.15"}, {"24.06", "2.16"}, {"24.12", "2.17"}};
    for (const auto& [release, framework] : tf_only) {
        INFO(release);
        const auto* tf = db().ngc_container("tensorflow", release);
        REQUIRE(tf);
        CHECK(tf->framework_version == framework);
        CHECK_FALSE(tf->cuda);
        CHECK_FALSE(tf->cudnn);
    }
    // No source read for these months: no row.
    CHECK_FALSE(db().ngc_container("tensorflow", "24.01"));
    CHECK_FALSE(db().ngc_container("tensorflow", "25.01"));

    const auto* trt2503 = db().ngc_container("nvcr.io/nvidia/tensorrt", "25.03-py3");
    REQUIRE(trt2503);
    CHECK(trt2503->cuda->str() == "12.8.1");
    CHECK(trt2503->ships.at("tensorrt")->str() == "10.9");
    const auto* trt2506 = db().ngc_container("tensorrt", "25.06");
    REQUIRE(trt2506);
    CHECK(trt2506->ships.at("tensorrt")->str() == "10.11.0");
    CHECK_FALSE(trt2506->cuda);  // "CUDA 12.9" without the update
    const auto* trt2510 = db().ngc_container("tensorrt", "25.10");
    REQUIRE(trt2510);
    CHECK(trt2510->framework_version == "10.13.3");
    CHECK_FALSE(trt2510->cuda);  // the sources disagree (13.0, 12.6)
    CHECK_FALSE(db().ngc_container("tensorrt", "25.08"));
}
