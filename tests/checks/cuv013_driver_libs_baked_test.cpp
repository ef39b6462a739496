#include <catch2/catch.hpp>

#include "support/cuda_image.hpp"

using namespace cuvet::test;

TEST_CASE("CUV013: libcuda.so baked into /usr/lib; cuda-compat's copy is not reported", "[validate][cuv013]") {
    for (bool baked : {true, false}) {
        CudaImage img;
        img.glibc();
        img.cuda_toolkit("12.1.105");
        img.fs().lib("/usr/local/cuda-12.1/compat/libcuda.so.530.30.02", "libcuda.so.1");
        if (baked) {
            img.fs().lib("/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05", "libcuda.so.1");
            img.fs().symlink("/usr/lib/x86_64-linux-gnu/libcuda.so.1", "libcuda.so.535.104.05");
        }
        REQUIRE(img.fs().error().empty());
        auto findings = validate_findings(img.write());
        INFO(describe_findings(findings));
        CHECK(ids_of(findings).count("CUV013") == (baked ? 1u : 0u));
        for (const auto& f : findings)
            if (f.id == "CUV013") {
                CHECK(f.message.find("/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05") != std::string::npos);
                CHECK(f.message.find("535.104.05") != std::string::npos);
            }
    }
}
