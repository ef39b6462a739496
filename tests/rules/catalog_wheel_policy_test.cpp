// The catalog's wheel policies (rules/SCHEMA.md, a pip spelling's "wheel") and the record
// fields lint reads beside them: companions and placeholders, official wheel hosts, packages
// that install one module, apt packages of a Python API and extension-builder variables.
#include "cuvet/rules/framework_catalog.hpp"
#include "rules_fixtures.hpp"

using cuvet::rules::builtin_framework_catalog;
using cuvet::rules::WheelMatch;

TEST_CASE("catalog: wheel policies as compiled in", "[rules][catalog-wheel]") {
    const auto& catalog = builtin_framework_catalog();

    const auto torch = catalog.wheel("torch");
    REQUIRE(torch);
    CHECK(torch->framework->framework == "pytorch");
    CHECK(torch->kind == WheelMatch::Kind::spelling);
    CHECK(torch->policy->libraries == "bundled");
    CHECK(torch->policy->variants == std::vector<std::string>{"cu{cuda_nodot}"});
    CHECK(torch->policy->complete_builds);
    CHECK(torch->policy->deps_bring_libraries_from == 12);
    // Released with each torch build, and a name on PyPI that only fails.
    const auto vision = catalog.wheel("TorchVision");
    REQUIRE(vision);
    CHECK(vision->kind == WheelMatch::Kind::companion);
    CHECK(vision->framework == torch->framework);
    const auto placeholder = catalog.wheel("pytorch");
    REQUIRE(placeholder);
    CHECK(placeholder->kind == WheelMatch::Kind::placeholder);
    CHECK(placeholder->policy->placeholder_error.find("\"torch\"") != std::string::npos);

    const auto retired = catalog.wheel("tensorflow-gpu");
    REQUIRE(retired);
    CHECK(retired->policy->retired_for == "tensorflow");
    CHECK(retired->policy->retired_since->str() == "2.1");
    CHECK(catalog.wheel("tensorflow")->policy->cpu_before->str() == "2.1");
    CHECK(catalog.wheel("tensorflow-cpu")->policy->gpu == "never");

    const auto jax = catalog.wheel("jax");
    REQUIRE(jax);
    CHECK(jax->policy->gpu == "extras");
    CHECK(jax->policy->selected_by == "jax[cuda]");
    CHECK(catalog.wheel("jaxlib")->policy->local_build_needs_toolkit);
    // jaxlib's local versions state the cuDNN too.
    const auto jaxlib = catalog.pip("jaxlib");
    REQUIRE(jaxlib);
    const auto local =
        cuvet::rules::FrameworkCatalog::local_version_cuda(*jaxlib, "0.4.20+cuda11.cudnn86");
    REQUIRE(local);
    CHECK(local->cuda == "11");
    CHECK(local->cudnn == "8.6");
    const auto patch =
        cuvet::rules::FrameworkCatalog::local_version_cuda(*jaxlib, "0.3.25+cuda11.cudnn805");
    REQUIRE(patch);
    CHECK(patch->cudnn == "8.0.5");

    CHECK(catalog.wheel("paddlepaddle-gpu")->policy->bundled_from->str() == "3");
    CHECK(catalog.wheel("cntk")->policy->gpu == "url");
    // Spellings lint has no policy for are judged by name alone, or not at all.
    CHECK_FALSE(catalog.wheel("mxnet-cu112"));
    CHECK_FALSE(catalog.wheel("numpy"));

    CHECK(catalog.official_wheel_host("download.pytorch.org"));
    CHECK(catalog.official_wheel_host("paddle-whl.bj.bcebos.com"));
    CHECK_FALSE(catalog.official_wheel_host("github.com"));
    CHECK(catalog.is_extension_name("torch-scatter"));
    CHECK_FALSE(catalog.is_extension_name("torchvision"));
    CHECK(catalog.apt_binding("tensorrt"));
    CHECK(catalog.apt_binding("python3-libnvinfer-dev"));
    CHECK_FALSE(catalog.apt_binding("libnvinfer10"));
    const auto variables = catalog.build_variables();
    CHECK(std::find(variables.begin(), variables.end(), "TORCH_CUDA_ARCH_LIST") != variables.end());
    const auto* ort = catalog.find("onnxruntime");
    REQUIRE(ort);
    CHECK(ort->exclusive_pip == std::vector<std::string>{"onnxruntime", "onnxruntime-gpu"});
    CHECK(ort->exclusive_loses == "CUDAExecutionProvider");
}

TEST_CASE("catalog: a bad wheel policy is refused with its pointer", "[rules][catalog-wheel]") {
    auto frameworks = cuvet::test::builtin_table("frameworks.json");
    auto& torch = frameworks["catalog"][0]["pip"][0]["wheel"];
    REQUIRE(torch.is_object());
    SECTION("gpu is one of the four") {
        torch["gpu"] = "sometimes";
        CHECK_THAT(cuvet::test::load_error_with("frameworks.json", frameworks),
                   Catch::Contains("/catalog/0/pip/0/wheel/gpu"));
    }
    SECTION("extras mode names its extras") {
        torch["gpu"] = "extras";
        CHECK_THAT(cuvet::test::load_error_with("frameworks.json", frameworks),
                   Catch::Contains("needs the gpu_extras"));
    }
    SECTION("a policy that reads build rows states its evidence") {
        torch.erase("evidence");
        CHECK_THAT(cuvet::test::load_error_with("frameworks.json", frameworks),
                   Catch::Contains("needs the evidence it states"));
    }
    SECTION("a variant template fills only CUDA placeholders") {
        torch["variants"] = {"cu{n}"};
        CHECK_THAT(cuvet::test::load_error_with("frameworks.json", frameworks),
                   Catch::Contains("/catalog/0/pip/0/wheel/variants/0"));
    }
    SECTION("placeholders carry the error pip fails with") {
        torch.erase("placeholder_error");
        CHECK_THAT(cuvet::test::load_error_with("frameworks.json", frameworks),
                   Catch::Contains("placeholder_error"));
    }
    SECTION("a retired name says since when") {
        torch["retired_for"] = "torch2";
        CHECK_THAT(cuvet::test::load_error_with("frameworks.json", frameworks),
                   Catch::Contains("retired_since"));
    }
    SECTION("a policy without its source") {
        torch.erase("source");
        CHECK_THAT(cuvet::test::load_error_with("frameworks.json", frameworks),
                   Catch::Contains("/catalog/0/pip/0/wheel: missing required key 'source'"));
    }
    SECTION("a wheel policy on a conda spelling") {
        frameworks["catalog"][0]["conda"][0]["wheel"] = torch;
        CHECK_THAT(cuvet::test::load_error_with("frameworks.json", frameworks),
                   Catch::Contains("a wheel policy belongs to a pip spelling"));
    }
}
