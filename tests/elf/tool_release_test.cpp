// The CUDA release of NVIDIA's compilers, read from the --version banner in
// their .rodata, against what the real ptxas prints when run.
#include "cuvet/elf/tool_release.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "cuvet/elf/elf_info.hpp"
#include "support/process.hpp"
#include "support/real_ptxas.hpp"
#include "support/skip.hpp"

using cuvet::elf::find_cuda_tools_release;
using cuvet::elf::find_cudnn_release;
namespace fs = std::filesystem;

TEST_CASE("find_cuda_tools_release reads the banner --version prints", "[elf][tool_release]") {
    using namespace std::string_literals;
    const std::string head = "\0Copyright (c) 2005-%s NVIDIA Corporation\n\0"s;
    CHECK(find_cuda_tools_release(
              head + "Cuda compilation tools, release 12.8, V12.8.93\nBuild cuda_12.8") ==
          "12.8.93");
    // Old banners carry no V number after the release.
    CHECK(find_cuda_tools_release("Cuda compilation tools, release 9.2\n") == "9.2");
    // A V number that is not the release's own is not taken.
    CHECK(find_cuda_tools_release("Cuda compilation tools, release 12.8, V13.0.1") == "12.8");
    CHECK(find_cuda_tools_release("Cuda compilation tools, release %s, V%s") == "");
    CHECK(find_cuda_tools_release("Cuda compilation tools, release 12") == "");
    CHECK(find_cuda_tools_release("no banner here") == "");
    CHECK(find_cuda_tools_release("") == "");
}

TEST_CASE("the release cuvet reads from a real ptxas is the one `ptxas --version` prints",
          "[elf][tool_release][real]") {
    auto programs = cuvet::test::real_ptxas_programs();
    if (programs.empty()) {
        CUVET_SKIP("skipped: no real ptxas (/usr/local/cuda/bin/ptxas, CUVET_TEST_PTXAS)");
    }
    for (const auto& ptxas : programs) {
        INFO(ptxas);
        auto run = cuvet::test::run_shell(ptxas.string() + " --version");
        REQUIRE(run.exit_code == 0);
        std::smatch m;
        REQUIRE(std::regex_search(run.out, m, std::regex(R"(release \d+\.\d+, V([0-9.]+))")));
        std::ifstream in(ptxas, std::ios::binary);
        std::stringstream bytes;
        bytes << in.rdbuf();
        auto info = cuvet::elf::inspect(bytes.str());
        REQUIRE(info);
        CHECK(info->soname.empty());
        CHECK(info->cuda_tools_release == m[1].str());
    }
}

TEST_CASE("find_cudnn_release reads cuDNN's release constant", "[elf][tool_release]") {
    using namespace std::string_literals;
    CHECK(find_cudnn_release("\0cudnn_version_9_19_0_56_\0"s) == "9.19.0");
    // The assertion text beside it is not a release; the constant after it is found.
    CHECK(find_cudnn_release("cudnn_version != (9 * 10000)\0cudnn_version_9_14_0_64_"s) ==
          "9.14.0");
    CHECK(find_cudnn_release("cudnn_version_9_19_") == "");
    CHECK(find_cudnn_release("cudnn_version_9_19_0_") == "");
    CHECK(find_cudnn_release("cudnn_version_") == "");
    CHECK(find_cudnn_release("") == "");
}

TEST_CASE("the cuDNN release cuvet reads from a real libcudnn_graph is its cudnn_version.h",
          "[elf][tool_release][real]") {
    const fs::path lib = "/usr/local/cuda/lib64/libcudnn_graph.so.9";
    const fs::path header = "/usr/local/cuda/include/cudnn_version.h";
    if (!fs::exists(lib) || !fs::exists(header)) {
        CUVET_SKIP(
            "skipped: no real cuDNN 9 (/usr/local/cuda/lib64/libcudnn_graph.so.9 and its header)");
    }
    auto read = [](const fs::path& path) {
        std::ifstream in(path, std::ios::binary);
        std::stringstream bytes;
        bytes << in.rdbuf();
        return bytes.str();
    };
    const std::string text = read(header);
    std::string expected;
    for (const char* name : {"CUDNN_MAJOR", "CUDNN_MINOR", "CUDNN_PATCHLEVEL"}) {
        std::smatch m;
        REQUIRE(
            std::regex_search(text, m, std::regex(std::string("#define ") + name + R"(\s+(\d+))")));
        expected += (expected.empty() ? "" : ".") + m[1].str();
    }
    auto info = cuvet::elf::inspect(read(lib));
    REQUIRE(info);
    CHECK(info->soname == "libcudnn_graph.so.9");
    CHECK(info->cudnn_release == expected);
}
