// python_packages.json's fields for GPU packages that are not frameworks (rules/SCHEMA.md):
// the extras that pull the GPU dependency, a project's own CUDA wheel index, and whose CUDA
// libraries a build loads.
#include <string>

#include "rules/rules_fixtures.hpp"

using namespace cuvet::test;

TEST_CASE("python_packages rows say which extra, index and libraries make a package a GPU one",
          "[rules][lint-corpus7-held]") {
    const auto* rembg = db().python_package("rembg");
    REQUIRE(rembg);
    CHECK(rembg->cuda_extras == std::vector<std::string>{"gpu"});
    const auto* llama = db().python_package("llama_cpp_python");
    REQUIRE(llama);
    CHECK(llama->cuda_wheel_index == "https://abetlen.github.io/llama-cpp-python/whl/");
    CHECK(llama->cuda_libraries == "system");
    CHECK(db().python_package("faiss-gpu-cu12")->cuda_major == 12);
    CHECK(db().python_package("faiss-gpu", "conda")->index == "pytorch");
    CHECK(db().python_package("causal-conv1d")->needs_toolkit);
    CHECK(db().python_package("mamba-ssm")->needs_toolkit);
    // Packages that state nothing keep the fields empty: unknown.
    CHECK(db().python_package("torch")->cuda_libraries.empty());
}

TEST_CASE("python_packages rejects a cuda_libraries other than system or bundled", "[rules]") {
    std::string packages = R"({"table": "python_packages", "data_version": "x", "description": "d",
        "sources": {"s": {"url": "https://x", "title": "t"}},
        "packages": [{"name": "llama-cpp-python", "ecosystem": "pypi", "role": "extension",
                      "framework": null, "variant": null, "cuda_major": null, "cudnn_major": null,
                      "index": "pypi", "cuda_libraries": "wheel", "source": "s"}]})";
    CHECK_THAT(load_error_with("python_packages.json", packages),
               Catch::Contains("/packages/0/cuda_libraries: expected \"system\" or \"bundled\""));
}
