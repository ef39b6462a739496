// The framework registry (src/frameworks/frameworks.inc) and the CUDA library
// table (core/cuda_libraries.hpp) as their readers see them: the sandbox's
// smoke tests and error markers, validate's framework names and library
// families, the ELF dlopen-string scan and CUV008's symbol owners.
#include <catch2/catch.hpp>
#include <set>

#include "cuvet/core/cuda_libraries.hpp"
#include "cuvet/elf/dlopen_strings.hpp"
#include "cuvet/frameworks/framework.hpp"
#include "cuvet/rules/framework_catalog.hpp"
#include "cuvet/sandbox/framework_smoke.hpp"
#include "cuvet/validate/stack_builder.hpp"

using namespace cuvet;

TEST_CASE("frameworks: each is registered once, under names nothing else uses", "[frameworks]") {
    std::set<std::string_view> names;
    for (const auto* f : frameworks::all()) {
        INFO(f->name);
        CHECK(!f->display.empty());
        CHECK(!f->component.empty());
        CHECK(names.insert(f->name).second);
        // A framework may be its own component ("cupy"); it must still be no other's.
        if (f->component != f->name) CHECK(names.insert(f->component).second);
        CHECK(frameworks::find(f->name) == f);
        CHECK(frameworks::by_component(f->component) == f);
        // Validate takes the install from the catalog: the model must name the same component.
        const auto* record = rules::builtin_framework_catalog().by_install(f->component);
        REQUIRE(record != nullptr);
        CHECK(record->framework == f->name);
        for (auto alias : f->aliases) CHECK(frameworks::find(alias) == f);
    }
    CHECK(frameworks::by_component("jaxlib")->name == "jax");
    CHECK(frameworks::by_component("torch")->name == "pytorch");
    CHECK(frameworks::by_component("glibc") == nullptr);
    CHECK(frameworks::find("vllm") == nullptr);
    // What `import jax` loads: its plugin packages too; a module no framework names is itself.
    CHECK(frameworks::imported_packages("jax") ==
          std::vector<std::string>{"jax", "jaxlib", "jax_plugins"});
    CHECK(frameworks::imported_packages("cupy") ==
          std::vector<std::string>{"cupy", "cupy_backends"});
    CHECK(frameworks::imported_packages("numpy") == std::vector<std::string>{"numpy"});
}

TEST_CASE("frameworks: the live check probes those with a smoke script, in registry order",
          "[frameworks][sandbox]") {
    CHECK(sandbox::smoke_frameworks() ==
          std::vector<std::string>{"torch", "jax", "cupy", "onnxruntime"});
    for (const auto& name : sandbox::smoke_frameworks()) {
        INFO(name);
        // The prelude and the framework's own body, both compiled in.
        auto script = sandbox::smoke_script(name);
        CHECK(script.find("CUVET_SMOKE") != std::string::npos);
        CHECK(script.size() > sandbox::smoke_script("common").size());
    }
    CHECK(frameworks::smoke_list(",") == "torch,jax,cupy,onnxruntime");
    CHECK(frameworks::smoke_list(", ", true) == "PyTorch, JAX, CuPy, ONNX Runtime");
    CHECK(sandbox::parse_framework_list("pytorch,ort") ==
          std::vector<std::string>{"torch", "onnxruntime"});
    CHECK_THROWS_WITH(sandbox::parse_framework_list("tensorflow"),
                      Catch::Contains("(torch, jax, cupy, onnxruntime, auto, none)"));
}

TEST_CASE("frameworks: every framework's error words are kept from its stderr",
          "[frameworks][sandbox]") {
    for (const auto* f : frameworks::all()) {
        for (auto marker : f->error_markers) {
            INFO(f->name << ": " << marker);
            const std::string line = "E1126 x.cc:1] prefix " + std::string(marker) + " suffix";
            CHECK(sandbox::framework_error_lines("progress\n" + line + "\n") ==
                  std::vector<std::string>{line});
        }
    }
}

TEST_CASE("CUDA libraries: one table for the dlopen scan, the stack's families and symbol owners",
          "[frameworks][elf]") {
    const auto table = cuda_libraries();
    for (std::size_t i = 0; i < table.size(); ++i) {
        const auto& lib = table[i];
        INFO(lib.stem);
        const std::string file = "lib" + std::string(lib.stem) + ".so.12";
        // The scan finds what the table marks, and nothing it does not.
        CHECK(elf::find_dlopen_candidates(" " + file + " ") ==
              (lib.dlopen_scan ? std::vector<std::string>{file} : std::vector<std::string>{}));
        if (lib.stack_family) CHECK(validate::cuda_family(file) == lib.stem);
        // An API prefix never follows a shorter one it starts with (cublasLt before cublas).
        for (std::size_t j = 0; j < i; ++j)
            if (!lib.api.empty() && !table[j].api.empty())
                CHECK(lib.api.substr(0, table[j].api.size()) != table[j].api);
    }
    CHECK(validate::cuda_family("libcublasLt.so.13") == "cublasLt");
    CHECK(validate::cuda_family("libcudnn_ops.so.9") == "cudnn_ops");
    CHECK(validate::cuda_family("libcudart_static.so.12").empty());
    CHECK(validate::cuda_family("libcuda.so.1").empty());  // the driver: the host's
}
