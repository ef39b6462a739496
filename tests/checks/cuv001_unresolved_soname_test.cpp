#include <catch2/catch.hpp>

#include "support/cuda_image.hpp"

using namespace cuvet::test;

namespace {
const std::string lib_dir = "/usr/lib/x86_64-linux-gnu";
}

TEST_CASE("CUV001: a needed cuDNN that nothing provides is reported with its search trace", "[validate][cuv001]") {
    CudaImage img;
    img.glibc();
    img.cuda_toolkit("12.1.105");
    // Linked against a cuDNN that is then left out of the image.
    img.fs().lib("/opt/stage/libcudnn.so.8", "libcudnn.so.8");
    img.torch("2.1.0+cu121", "12.1", {"/opt/stage/libcudnn.so.8", "/usr/local/cuda-12.1/targets/x86_64-linux/lib/libcudart.so.12"});
    std::filesystem::remove_all(img.fs().host("/opt/stage"));
    REQUIRE(img.fs().error().empty());
    auto findings = validate_findings(img.write());
    INFO(describe_findings(findings));
    REQUIRE(ids_of(findings).count("CUV001") == 1);
    const auto& f = *std::find_if(findings.begin(), findings.end(), [](const auto& x) { return x.id == "CUV001"; });
    CHECK(f.message.find("libcudnn.so.8") != std::string::npos);
    CHECK(f.message.find("libtorch_cuda.so") != std::string::npos);
    bool traced = false;
    for (const auto& e : f.evidence) traced = traced || e.find("nvidia/cudnn/lib/libcudnn.so.8") != std::string::npos;
    CHECK(traced);  // the RUNPATH candidate is in the trace
}

TEST_CASE("CUV001: nothing reported when the loader finds every library", "[validate][cuv001]") {
    CudaImage img;
    img.glibc();
    img.cuda_toolkit("12.1.105");
    img.cudnn(lib_dir, "8.9.2");
    img.torch("2.1.0+cu121", "12.1", {lib_dir + "/libcudnn.so.8", "/usr/local/cuda-12.1/targets/x86_64-linux/lib/libcudart.so.12"});
    REQUIRE(img.fs().error().empty());
    auto findings = validate_findings(img.write());
    INFO(describe_findings(findings));
    CHECK(ids_of(findings).count("CUV001") == 0);
}
