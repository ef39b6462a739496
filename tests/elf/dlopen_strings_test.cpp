#include "cuvet/elf/dlopen_strings.hpp"

#include <catch2/catch.hpp>

using namespace cuvet;
using Names = std::vector<std::string>;

namespace {
Names find(const std::string& bytes) { return elf::find_dlopen_candidates(bytes); }
}  // namespace

TEST_CASE("find_dlopen_candidates keeps CUDA-stack library names", "[elf][dlopen]") {
    using namespace std::string_literals;
    CHECK(find("\0libcudnn.so.9\0libcublasLt.so.12.3.1\0"s) ==
          Names{"libcudnn.so.9", "libcublasLt.so.12.3.1"});
    CHECK(find("libcudart.so") == Names{"libcudart.so"});
    CHECK(find("dlopen(/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1) failed") ==
          Names{"libnvidia-ml.so.1"});
    CHECK(find("libcudnn_ops_infer.so.8 libnvinfer_plugin.so.10 libnvJitLink.so.12") ==
          Names{"libcudnn_ops_infer.so.8", "libnvinfer_plugin.so.10", "libnvJitLink.so.12"});
    CHECK(find("libcuda.so.1 libcuda.so.1 libcuda.so.1") == Names{"libcuda.so.1"});
    // A printf pattern keeps the stem.
    CHECK(find("libcudart.so.%d") == Names{"libcudart.so"});
}

TEST_CASE("find_dlopen_candidates ignores other names and partial words", "[elf][dlopen]") {
    CHECK(find("libc.so.6 libstdc++.so.6 liblapack.so.3 libcudnnx.soname").empty());
    CHECK(find("mylibcudnn.so.9").empty());
    CHECK(find("libcudnn.so.9x").empty());
    CHECK(find("libcudnn-8.so").empty());
    CHECK(find(".so").empty());
    CHECK(find("").empty());
    CHECK(find("lib.so.so.so").empty());
}

TEST_CASE("find_dlopen_candidates keeps at most its cap", "[elf][dlopen]") {
    std::string many;
    for (int i = 0; i < 1000; ++i) many += "libcuda_" + std::to_string(i) + ".so ";
    CHECK(find(many).size() == elf::max_dlopen_candidates);
}
