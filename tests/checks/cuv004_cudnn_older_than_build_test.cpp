#include <catch2/catch.hpp>

#include "support/cuda_image.hpp"

using namespace cuvet::test;

TEST_CASE("CUV004: TensorFlow 2.12 (built with cuDNN 8.6) loading cuDNN 8.4", "[validate][cuv004]") {
    for (std::string installed : {"8.4.1", "8.6.0", "8.9.7"}) {
        CudaImage img;
        img.glibc();
        img.cuda_toolkit("11.8.89");
        img.cudnn("/usr/lib/x86_64-linux-gnu", installed, installed + ".50-1+cuda11.8");
        img.tensorflow("2.12.0", "11.8", "8", {"libcudnn.so.8", "libcudart.so.11.0"});
        REQUIRE(img.fs().error().empty());
        auto findings = validate_findings(img.write());
        INFO(installed << "\n" << describe_findings(findings));
        CHECK(ids_of(findings).count("CUV004") == (installed == "8.4.1" ? 1u : 0u));
        for (const auto& f : findings) {
            if (f.id != "CUV004") continue;
            CHECK(f.message.find("built with cuDNN 8.6") != std::string::npos);
            CHECK(f.message.find("libcudnn.so.8.4.1") != std::string::npos);
            CHECK(f.fix.find("8.6") != std::string::npos);
        }
    }
}

TEST_CASE("CUV004: names the framework whose import fails", "[validate][cuv004]") {
    CudaImage img;
    img.glibc();
    img.cuda_toolkit("11.8.89");
    img.cudnn("/usr/lib/x86_64-linux-gnu", "8.4.1", "8.4.1.50-1+cuda11.8");
    img.tensorflow("2.12.0", "11.8", "8", {"libcudnn.so.8", "libcudart.so.11.0"});
    REQUIRE(img.fs().error().empty());
    auto findings = validate_findings(img.write());
    INFO(describe_findings(findings));
    REQUIRE(ids_of(findings).count("CUV004") == 1);
    for (const auto& f : findings)
        if (f.id == "CUV004") CHECK(f.loaded_by == "imported by tensorflow");
}
