#include <catch2/catch.hpp>

#include "support/cuda_image.hpp"

using namespace cuvet::test;

TEST_CASE("CUV003: two cuDNN copies of different versions, and which one torch loads", "[validate][cuv003]") {
    for (bool differ : {true, false}) {
        CudaImage img;
        img.glibc();
        img.cuda_toolkit("12.1.105");
        img.cudnn("/usr/lib/x86_64-linux-gnu", differ ? "8.6.0" : "8.9.2");
        img.cudnn_wheel("8.9.2.26", 12);
        img.torch("2.1.0+cu121", "12.1", {site_packages + "/nvidia/cudnn/lib/libcudnn.so.8"});
        REQUIRE(img.fs().error().empty());
        auto findings = validate_findings(img.write());
        INFO(describe_findings(findings));
        CHECK(ids_of(findings).count("CUV003") == (differ ? 1u : 0u));
        for (const auto& f : findings) {
            if (f.id != "CUV003") continue;
            CHECK(f.message.find("8.6.0") != std::string::npos);
            CHECK(f.message.find("8.9.2.26") != std::string::npos);
            CHECK(f.message.find("Consumers load: " + site_packages + "/nvidia/cudnn/lib/libcudnn.so.8") != std::string::npos);
        }
    }
}
