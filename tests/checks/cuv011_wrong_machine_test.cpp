#include <catch2/catch.hpp>

#include "support/cuda_image.hpp"

using namespace cuvet::test;

TEST_CASE("CUV011: x86-64 libraries in an arm64 image", "[validate][cuv011]") {
    for (std::string arch : {"arm64", "amd64"}) {
        CudaImage img;
        img.architecture = arch;
        img.fs().lib("/usr/lib/libcudnn.so.8.9.2", "libcudnn.so.8");
        REQUIRE(img.fs().error().empty());
        auto findings = validate_findings(img.write());
        INFO(arch << "\n" << describe_findings(findings));
        CHECK(ids_of(findings).count("CUV011") == (arch == "arm64" ? 1u : 0u));
        for (const auto& f : findings)
            if (f.id == "CUV011") CHECK(f.message.find("x86-64") != std::string::npos);
    }
}
