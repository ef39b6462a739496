#include <catch2/catch.hpp>

#include "support/cuda_image.hpp"

using namespace cuvet::test;

TEST_CASE("CUV007: a cu118 torch in a CUDA 12 image without a CUDA 11 runtime", "[validate][cuv007]") {
    for (std::string toolkit : {"12.1.105", "11.8.89"}) {
        CudaImage img;
        img.glibc();
        img.cuda_toolkit(toolkit);
        img.torch("2.1.0+cu118", "11.8", {});
        REQUIRE(img.fs().error().empty());
        auto findings = validate_findings(img.write());
        INFO(toolkit << "\n" << describe_findings(findings));
        CHECK(ids_of(findings).count("CUV007") == (toolkit[1] == '2' ? 1u : 0u));
        for (const auto& f : findings)
            if (f.id == "CUV007") CHECK(f.fix.find("cu121") != std::string::npos);
    }
}

TEST_CASE("CUV007: names the framework whose import fails", "[validate][cuv007]") {
    CudaImage img;
    img.glibc();
    img.cuda_toolkit("12.1.105");
    img.torch("2.1.0+cu118", "11.8", {});
    REQUIRE(img.fs().error().empty());
    auto findings = validate_findings(img.write());
    INFO(describe_findings(findings));
    REQUIRE(ids_of(findings).count("CUV007") == 1);
    for (const auto& f : findings)
        if (f.id == "CUV007") CHECK(f.loaded_by == "imported by torch");
}
