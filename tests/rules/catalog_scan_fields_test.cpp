// The catalog fields the scan, the inventory, the probe and the lock read instead of naming a
// framework in code (rules/SCHEMA.md): version headers, env prefixes, the GPU library the probe
// preloads, a CUDA provider library, bundled compiler headers. The loader refuses a bad value
// with its JSON pointer.
#include <algorithm>

#include "cuvet/rules/framework_catalog.hpp"
#include "rules_fixtures.hpp"

using cuvet::rules::builtin_framework_catalog;
using cuvet::rules::FrameworkRecord;

namespace {

// The index of a framework's record in frameworks.json's catalog.
std::size_t record_index(const nlohmann::json& frameworks, const std::string& name) {
    const auto& catalog = frameworks["catalog"];
    for (std::size_t i = 0; i < catalog.size(); ++i)
        if (catalog[i]["framework"] == name) return i;
    FAIL("no catalog record " << name);
    return 0;
}

}  // namespace

TEST_CASE("catalog: scan fields as compiled in", "[rules][catalog-fields]") {
    const auto& catalog = builtin_framework_catalog();

    const auto* header = catalog.version_header("NvInferVersion.h");
    REQUIRE(header);
    CHECK(header->component == "tensorrt");
    CHECK(header->defines.front() == "NV_TENSORRT_MAJOR");
    CHECK(catalog.version_header("cudnn_version.h") == nullptr);  // cuDNN is no framework

    const auto prefixes = catalog.env_prefixes();
    for (const char* prefix : {"TORCH_CUDA", "XLA_", "TF_CUDA", "TRT_"})
        CHECK(std::count(prefixes.begin(), prefixes.end(), prefix) == 1);

    const std::string site = "/usr/local/lib/python3.12/site-packages";
    auto library =
        catalog.path_of(&FrameworkRecord::gpu_library, site + "/torch/lib/libtorch_cuda.so");
    REQUIRE(library);
    CHECK(library->framework->framework == "pytorch");
    CHECK(library->site == site);
    // The name must start a path segment: another package's copy is not torch's.
    CHECK_FALSE(
        catalog.path_of(&FrameworkRecord::gpu_library, site + "/mytorch/lib/libtorch_cuda.so"));
    CHECK_FALSE(catalog.path_of(&FrameworkRecord::gpu_library, site + "/torch/lib/libtorch.so"));

    auto provider = catalog.path_of(&FrameworkRecord::cuda_provider,
                                    site + "/onnxruntime/capi/libonnxruntime_providers_cuda.so");
    REQUIRE(provider);
    CHECK(provider->framework->install == "onnxruntime");

    auto hub = catalog.docker_image("pytorch/pytorch");
    REQUIRE(hub);
    CHECK(hub->framework->framework == "pytorch");
    CHECK(hub->image->tag_format == "version-cuda-cudnn-flavor");
    REQUIRE(catalog.docker_image("tensorflow/tensorflow"));
    CHECK(catalog.docker_image("tensorflow/tensorflow")->image->gpu_word == "gpu");
    CHECK_FALSE(catalog.docker_image("nvidia/cuda"));

    CHECK(catalog.in_bundled_headers(site + "/triton/backends/nvidia/include"));
    CHECK_FALSE(catalog.in_bundled_headers("/usr/local/cuda-12.4/targets/x86_64-linux/include"));
}

TEST_CASE("catalog: a bad scan field is refused with its pointer", "[rules][catalog-fields]") {
    auto frameworks = cuvet::test::builtin_table("frameworks.json");
    const auto torch = record_index(frameworks, "pytorch");
    const auto trt = record_index(frameworks, "tensorrt");
    const std::string at = "/catalog/" + std::to_string(torch);
    SECTION("a gpu_library path lies below site-packages") {
        frameworks["catalog"][torch]["gpu_library"]["path"] = "/torch/lib/libtorch_cuda.so";
        CHECK_THAT(cuvet::test::load_error_with("frameworks.json", frameworks),
                   Catch::Contains(at + "/gpu_library/path: expected a path below site-packages"));
    }
    SECTION("env prefixes carry a source") {
        frameworks["catalog"][torch]["env_prefixes"]["source"] = "no-such-source";
        CHECK_THAT(cuvet::test::load_error_with("frameworks.json", frameworks),
                   Catch::Contains(at + "/env_prefixes"));
    }
    SECTION("an env prefix is not empty") {
        frameworks["catalog"][torch]["env_prefixes"]["prefixes"] = {""};
        CHECK_THAT(
            cuvet::test::load_error_with("frameworks.json", frameworks),
            Catch::Contains(at + "/env_prefixes/prefixes: expected a variable name's prefix"));
    }
    SECTION("a docker image's tag format is one the reader knows") {
        frameworks["catalog"][torch]["docker_images"][0]["tag_format"] = "version-flavor";
        CHECK_THAT(cuvet::test::load_error_with("frameworks.json", frameworks),
                   Catch::Contains(at + "/docker_images/0/tag_format: expected"));
    }
    SECTION("a version-word tag names its GPU word") {
        const auto tf = record_index(frameworks, "tensorflow");
        frameworks["catalog"][tf]["docker_images"][0].erase("gpu_word");
        CHECK_THAT(cuvet::test::load_error_with("frameworks.json", frameworks),
                   Catch::Contains("/docker_images/0/tag_format: a \"version-word\" tag needs"));
    }
    SECTION("a lazy module names its path, its API and a release") {
        const auto cupy = record_index(frameworks, "cupy");
        const std::string lazy = "/catalog/" + std::to_string(cupy) + "/lazy_modules/0/";
        frameworks["catalog"][cupy]["lazy_modules"][0]["since"] = "x.y";
        CHECK_THAT(cuvet::test::load_error_with("frameworks.json", frameworks),
                   Catch::Contains(lazy + "since: expected the first lazy release"));
        frameworks["catalog"][cupy]["lazy_modules"][0]["since"] = "14.0";
        frameworks["catalog"][cupy]["lazy_modules"][0]["api"] = "";
        CHECK_THAT(cuvet::test::load_error_with("frameworks.json", frameworks),
                   Catch::Contains(lazy + "path: expected a module path below site-packages"));
    }
    SECTION("a version header is a base name with defines") {
        frameworks["catalog"][trt]["version_headers"][0]["file"] = "include/NvInferVersion.h";
        CHECK_THAT(cuvet::test::load_error_with("frameworks.json", frameworks),
                   Catch::Contains("/catalog/" + std::to_string(trt) +
                                   "/version_headers/0/file: expected a header's base name"));
        frameworks["catalog"][trt]["version_headers"][0]["file"] = "NvInferVersion.h";
        frameworks["catalog"][trt]["version_headers"][0]["defines"] = nlohmann::json::array();
        CHECK_THAT(cuvet::test::load_error_with("frameworks.json", frameworks),
                   Catch::Contains("/version_headers/0/defines: expected the defines"));
    }
}
