#include <catch2/catch.hpp>

#include "support/cuda_image.hpp"

using namespace cuvet::test;

namespace {

// A torch wheel with its pip cuDNN, and a system cuDNN in /usr/lib.
void torch_with_two_cudnns(CudaImage& img, bool system_dir_on_ld_library_path) {
    img.glibc();
    img.cuda_toolkit("12.1.105");
    img.cudnn("/usr/lib/x86_64-linux-gnu", "8.9.2", "8.9.2.26-1+cuda12.1");
    img.cudnn_wheel("8.9.2.26", 12);
    img.torch("2.1.0+cu121", "12.1",
              {site_packages + "/nvidia/cudnn/lib/libcudnn.so.8",
               "/usr/local/cuda-12.1/targets/x86_64-linux/lib/libcudart.so.12"});
    if (system_dir_on_ld_library_path)
        img.env.push_back("LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/lib/x86_64-linux-gnu");
}

}  // namespace

TEST_CASE("CUV002: LD_LIBRARY_PATH makes torch load the system cuDNN instead of its wheel's",
          "[validate][cuv002]") {
    CudaImage img;
    torch_with_two_cudnns(img, true);
    REQUIRE(img.fs().error().empty());
    auto findings = validate_findings(img.write());
    INFO(describe_findings(findings));
    REQUIRE(ids_of(findings).count("CUV002") == 1);
    for (const auto& f : findings) {
        if (f.id != "CUV002") continue;
        CHECK(f.message.find("/usr/lib/x86_64-linux-gnu/libcudnn.so.8.9.2") != std::string::npos);
        CHECK(f.fix.find("LD_LIBRARY_PATH") != std::string::npos);
    }
}

TEST_CASE("CUV002: the wheel's cuDNN wins through RUNPATH without LD_LIBRARY_PATH",
          "[validate][cuv002]") {
    CudaImage img;
    torch_with_two_cudnns(img, false);
    REQUIRE(img.fs().error().empty());
    auto findings = validate_findings(img.write());
    INFO(describe_findings(findings));
    CHECK(ids_of(findings).count("CUV002") == 0);
}
