// The catalog fields lint reads (rules/SCHEMA.md): name_words per record, cuda_libraries per
// pip spelling; the loader refuses a bad value with its JSON pointer.
#include "cuvet/rules/framework_catalog.hpp"
#include "rules_fixtures.hpp"

using cuvet::rules::builtin_framework_catalog;

TEST_CASE("catalog: name_words and cuda_libraries as compiled in", "[rules][catalog-lint]") {
    const auto& catalog = builtin_framework_catalog();
    const auto* paddle = catalog.find("paddlepaddle");
    REQUIRE(paddle);
    CHECK(paddle->name_words == std::vector<std::string>{"paddle"});
    // OpenAI Triton's record names no image; the server has its own record.
    REQUIRE(catalog.find("triton"));
    CHECK(catalog.find("triton")->name_words.empty());
    REQUIRE(catalog.find("tritonserver"));
    auto mxnet = catalog.pip("mxnet-cu112");
    REQUIRE(mxnet);
    CHECK(mxnet->spelling->cuda_libraries == "system");
    CHECK(mxnet->cuda == "11.2");
    // PyPI's plain mxnet is the CPU build: no CUDA, nothing stated.
    REQUIRE(catalog.pip("mxnet"));
    CHECK(catalog.pip("mxnet")->spelling->cuda_libraries.empty());
}

TEST_CASE("catalog: a bad name_words or cuda_libraries is refused with its pointer",
          "[rules][catalog-lint]") {
    auto frameworks = cuvet::test::builtin_table("frameworks.json");
    SECTION("cuda_libraries is system or bundled") {
        frameworks["catalog"][0]["pip"][0]["cuda_libraries"] = "both";
        CHECK_THAT(cuvet::test::load_error_with("frameworks.json", frameworks),
                   Catch::Contains("/catalog/0/pip/0/cuda_libraries: expected \"system\" or "
                                   "\"bundled\""));
    }
    SECTION("name_words is a list of words") {
        frameworks["catalog"][0]["name_words"] = "torch";
        CHECK_THAT(cuvet::test::load_error_with("frameworks.json", frameworks),
                   Catch::Contains("/catalog/0/name_words"));
    }
}
