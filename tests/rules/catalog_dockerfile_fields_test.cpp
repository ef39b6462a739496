// The catalog fields the Dockerfile reader takes a framework's CUDA spellings from
// (rules/SCHEMA.md): pip_indexes, conda_cuda_selectors and a pip spelling's cuda_extras.
#include "cuvet/rules/framework_catalog.hpp"
#include "rules_fixtures.hpp"

using cuvet::rules::builtin_framework_catalog;
using cuvet::rules::FrameworkCatalog;

TEST_CASE("catalog: CUDA spellings of index URLs, conda selectors and extras",
          "[rules][catalog-dockerfile]") {
    const auto& catalog = builtin_framework_catalog();
    const auto feed = catalog.index_cuda(
        "https://aiinfra.pkgs.visualstudio.com/PublicPackages/_packaging/onnxruntime-cuda-13/"
        "pypi/simple/");
    REQUIRE(feed);
    CHECK(feed->cuda == "13");
    // A URL that names no feed of the catalog states nothing; a cu-tag alone is not a feed.
    CHECK_FALSE(catalog.index_cuda("https://download.pytorch.org/whl/cu121"));
    CHECK_FALSE(catalog.index_cuda("https://example.org/onnxruntime-cuda-/simple"));

    CHECK(catalog.is_conda_cuda_selector("pytorch-cuda"));
    CHECK_FALSE(catalog.is_conda_cuda_selector("pytorch"));

    const auto jax = catalog.pip("jax");
    REQUIRE(jax);
    CHECK(FrameworkCatalog::extras_cuda(*jax, "cuda12_pip")->cuda == "12");
    CHECK(FrameworkCatalog::extras_cuda(*jax, "tpu, cuda13")->cuda == "13");
    CHECK_FALSE(FrameworkCatalog::extras_cuda(*jax, "cuda"));  // no major: unknown
    const auto torch = catalog.pip("torch");
    REQUIRE(torch);
    CHECK_FALSE(FrameworkCatalog::extras_cuda(*torch, "cuda12"));  // torch has no such extra
}

TEST_CASE("catalog: a bad pip_indexes or conda_cuda_selectors is refused with its pointer",
          "[rules][catalog-dockerfile]") {
    auto frameworks = cuvet::test::builtin_table("frameworks.json");
    SECTION("an index URL without a CUDA placeholder") {
        frameworks["catalog"][0]["pip_indexes"] = {
            {{"url", "/feed-{n}"}, {"source", "ort-issue-27944"}}};
        CHECK_THAT(cuvet::test::load_error_with("frameworks.json", frameworks),
                   Catch::Contains("/catalog/0/pip_indexes/0/url: expected a {cuda_major} or "
                                   "{cuda_nodot} placeholder"));
    }
    SECTION("selectors without a source") {
        frameworks["catalog"][0]["conda_cuda_selectors"] = {{"names", {"x-cuda"}}};
        CHECK_THAT(cuvet::test::load_error_with("frameworks.json", frameworks),
                   Catch::Contains("/catalog/0/conda_cuda_selectors: missing required key "
                                   "'source'"));
    }
    SECTION("an extra that is no pattern") {
        frameworks["catalog"][0]["pip"][0]["cuda_extras"] = {"cuda{major}"};
        CHECK_THAT(cuvet::test::load_error_with("frameworks.json", frameworks),
                   Catch::Contains("/catalog/0/pip/0/cuda_extras/0"));
    }
}
