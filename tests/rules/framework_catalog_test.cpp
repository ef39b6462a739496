// The framework catalog (rules/frameworks.json "catalog"): its lookups as the scan and the
// inventory ask them, and the loader's refusals of a bad record.
#include "cuvet/rules/framework_catalog.hpp"

#include "rules_fixtures.hpp"

using cuvet::rules::builtin_framework_catalog;

TEST_CASE("catalog: pip spellings give the component, the CUDA release and the package dir",
          "[rules][catalog]") {
    const auto& catalog = builtin_framework_catalog();
    auto plugin = catalog.pip("Jax_CUDA12.Plugin");
    REQUIRE(plugin);
    CHECK(plugin->framework->framework == "jax");
    CHECK(plugin->spelling->component == "jax-cuda-plugin");
    CHECK(plugin->cuda == "12");
    CHECK(plugin->dir == "jax_cuda12_plugin");
    auto pjrt = catalog.pip("jax_cuda13_pjrt");
    REQUIRE(pjrt);
    CHECK(pjrt->dir == "jax_plugins/xla_cuda13");
    auto cupy = catalog.pip("cupy-cuda102");
    REQUIRE(cupy);
    CHECK(cupy->cuda == "10.2");
    CHECK(catalog.pip("cupy-cuda12x")->cuda == "12");
    auto mxnet = catalog.pip("mxnet_cu101mkl");
    REQUIRE(mxnet);
    CHECK(mxnet->framework->framework == "mxnet");
    CHECK(mxnet->cuda == "10.1");
    auto trt_libs = catalog.pip("tensorrt-cu12-libs");
    REQUIRE(trt_libs);
    CHECK(trt_libs->spelling->category == "cuda-library");
    CHECK(trt_libs->cuda.empty());  // {n}: the inventory keeps no CUDA from TensorRT's name
    CHECK(catalog.pip("paddlepaddle-gpu")->spelling->component == "paddle");
    CHECK_FALSE(catalog.pip("numpy"));
    CHECK_FALSE(catalog.pip("cupy-cudax"));   // a placeholder needs digits
    CHECK_FALSE(catalog.pip("torchvision"));  // a spelling is the whole name
    CHECK(catalog.conda("cupy-core")->spelling->component == "cupy");
    CHECK_FALSE(catalog.conda("torch"));  // conda names it pytorch
}

TEST_CASE("catalog: version files are matched at a package dir and rooted there",
          "[rules][catalog]") {
    const auto& catalog = builtin_framework_catalog();
    auto torch = catalog.version_file("/opt/py/site-packages/torch/version.py");
    REQUIRE(torch);
    CHECK(torch->root == "/opt/py/site-packages/torch");
    CHECK(torch->file->component == "torch");
    auto tf = catalog.version_file("/s/tensorflow/python/platform/build_info.py");
    REQUIRE(tf);
    CHECK(tf->root == "/s/tensorflow");
    CHECK(catalog.version_file("/s/mxnet/libinfo.py")->framework->framework == "mxnet");
    CHECK_FALSE(catalog.version_file("/s/mytorch/version.py"));
    CHECK_FALSE(catalog.version_file("torch/version.py"));  // no dir above the package
}

TEST_CASE("catalog: every framework a build or error text names has a record", "[rules][catalog]") {
    auto frameworks = cuvet::test::builtin_table("frameworks.json");
    const auto& catalog = builtin_framework_catalog();
    for (const auto& b : frameworks["builds"])
        CHECK(catalog.find(b["framework"].get<std::string>()) != nullptr);
    frameworks["builds"][0]["framework"] = "theano";
    CHECK_THAT(cuvet::test::load_error_with("frameworks.json", frameworks),
               Catch::Contains("/builds/0/framework: unknown framework 'theano'"));
}

TEST_CASE("catalog: the component validate judges as a framework's install",
          "[rules][catalog][catalog-frameworks]") {
    const auto& catalog = builtin_framework_catalog();
    CHECK(catalog.by_install("jaxlib")->framework == "jax");
    CHECK(catalog.by_install("torch")->framework == "pytorch");
    CHECK(catalog.by_install("paddle")->framework == "paddlepaddle");
    CHECK(catalog.by_install("mxnet")->framework == "mxnet");
    CHECK(catalog.by_install("tensorrt-python")->framework == "tensorrt");
    CHECK(catalog.by_install("jax") == nullptr);     // jax itself is Python; jaxlib is the build
    CHECK(catalog.by_install("triton") == nullptr);  // judged with the torch that pins it
    CHECK(catalog.by_install("") == nullptr);
}

TEST_CASE("catalog: a bad record is refused with its pointer", "[rules][catalog]") {
    auto frameworks = cuvet::test::builtin_table("frameworks.json");
    SECTION("an unknown placeholder") {
        frameworks["catalog"][0]["pip"][0]["name"] = "torch-cu{cuda}";
        CHECK_THAT(cuvet::test::load_error_with("frameworks.json", frameworks),
                   Catch::Contains("/catalog/0/pip/0/name: expected {cuda_major}"));
    }
    SECTION("a pip name that is not PEP 503 normalized") {
        frameworks["catalog"][0]["pip"][0]["name"] = "Torch";
        CHECK_THAT(cuvet::test::load_error_with("frameworks.json", frameworks),
                   Catch::Contains("/catalog/0/pip/0/name: expected the PEP 503"));
    }
    SECTION("a framework named twice") {
        frameworks["catalog"][1]["framework"] = frameworks["catalog"][0]["framework"];
        CHECK_THAT(cuvet::test::load_error_with("frameworks.json", frameworks),
                   Catch::Contains("/catalog/1/framework"));
    }
    SECTION("an install another record has") {
        frameworks["catalog"][1]["install"] = frameworks["catalog"][0]["install"];
        CHECK_THAT(cuvet::test::load_error_with("frameworks.json", frameworks),
                   Catch::Contains("/catalog/1/install: expected an inventory component no other"));
    }
    SECTION("a version file without its package dir") {
        frameworks["catalog"][0]["version_files"][0]["path"] = "version.py";
        CHECK_THAT(cuvet::test::load_error_with("frameworks.json", frameworks),
                   Catch::Contains("/catalog/0/version_files/0/path"));
    }
}
