#include <catch2/catch.hpp>

#include "support/cuda_image.hpp"

using namespace cuvet::test;

TEST_CASE("CUV005: libcudnn.so.8.9.7 next to libcudnn_ops_infer.so.8.6.0", "[validate][cuv005]") {
    for (bool mixed : {true, false}) {
        CudaImage img;
        img.glibc();
        img.cudnn("/usr/lib/x86_64-linux-gnu", "8.9.7", "", mixed ? "8.6.0" : "8.9.7");
        REQUIRE(img.fs().error().empty());
        auto findings = validate_findings(img.write());
        INFO(describe_findings(findings));
        CHECK(ids_of(findings).count("CUV005") == (mixed ? 1u : 0u));
        for (const auto& f : findings)
            if (f.id == "CUV005") CHECK(f.message.find("libcudnn_ops_infer.so.8.6.0") != std::string::npos);
    }
}
