#include <catch2/catch.hpp>

#include "support/cuda_image.hpp"

using namespace cuvet::test;

TEST_CASE("CUV007: a cu118 torch in a CUDA 12 image without a CUDA 11 runtime",
          "[validate][cuv007]") {
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

TEST_CASE("CUV007: a tensorrt_llm 1.1 wheel (CUDA 12.9) in a CUDA 13 image", "[validate][cuv007]") {
    for (std::string toolkit : {"13.0.88", "12.9.79"}) {
        CudaImage img;
        img.glibc();
        img.cuda_toolkit(toolkit);
        img.fs().lib(site_packages + "/tensorrt_llm/libs/libtensorrt_llm.so", "libtensorrt_llm.so",
                     {});
        img.fs().write(site_packages + "/tensorrt_llm/__init__.py", "");
        img.fs().write(site_packages + "/tensorrt_llm-1.1.0.dist-info/METADATA",
                       "Metadata-Version: 2.1\nName: tensorrt_llm\nVersion: 1.1.0\n\n");
        REQUIRE(img.fs().error().empty());
        auto findings = validate_findings(img.write());
        INFO(toolkit << "\n" << describe_findings(findings));
        // The wheel's CUDA comes from the rules (frameworks.json: 1.1 wheels are CUDA 12.9 builds).
        CHECK(ids_of(findings).count("CUV007") == (toolkit[1] == '3' ? 1u : 0u));
        for (const auto& f : findings)
            if (f.id == "CUV007") CHECK(f.message.find("tensorrt-llm 1.1.0") != std::string::npos);
    }
}
