#include <catch2/catch.hpp>

#include "support/cuda_image.hpp"

using namespace cuvet::test;

TEST_CASE(
    "CUV009: CUDA 12.4 on a fleet of 470 drivers, 535 is enough through minor version "
    "compatibility",
    "[validate][cuv009]") {
    CudaImage img;
    img.glibc();
    img.cuda_toolkit("12.4.1");
    REQUIRE(img.fs().error().empty());
    auto image = img.write();
    auto old_fleet =
        validate_findings(image, {{*cuvet::rules::Version::parse("470.223.02")}, {}, {}});
    INFO(describe_findings(old_fleet));
    REQUIRE(ids_of(old_fleet).count("CUV009") == 1);
    for (const auto& f : old_fleet)
        if (f.id == "CUV009") {
            CHECK(f.message.find("470.223.02") != std::string::npos);
            CHECK(f.message.find("needs driver >= 525.60.13 (550.54.15 for full compatibility)") !=
                  std::string::npos);
            CHECK(f.fix.find("11.") != std::string::npos);  // a base image the 470 driver runs
        }
    for (const char* driver : {"535.104.05", "550.54.15"}) {
        auto ok = validate_findings(image, {{*cuvet::rules::Version::parse(driver)}, {}, {}});
        INFO(driver << "\n" << describe_findings(ok));
        CHECK(ids_of(ok).count("CUV009") == 0);
    }
}

TEST_CASE("CUV009: cuda-compat in the image turns the error into a warning", "[validate][cuv009]") {
    CudaImage img;
    img.glibc();
    img.cuda_toolkit("12.4.1");
    img.fs().lib("/usr/local/cuda-12.4/compat/libcuda.so.550.54.15", "libcuda.so.1");
    img.fs().symlink("/usr/local/cuda-12.4/compat/libcuda.so.1", "libcuda.so.550.54.15");
    REQUIRE(img.fs().error().empty());
    auto findings =
        validate_findings(img.write(), {{*cuvet::rules::Version::parse("470.223.02")}, {}, {}});
    INFO(describe_findings(findings));
    REQUIRE(ids_of(findings).count("CUV009") == 1);
    for (const auto& f : findings)
        if (f.id == "CUV009") CHECK(f.severity == cuvet::report::Severity::warning);
}

TEST_CASE("CUV009: a runtime known only by its soname is judged by its major's floor",
          "[validate][cuv009]") {
    // No toolkit, no version file: only libcudart.so.12 (13) as a pip wheel leaves it, unversioned.
    for (int major : {12, 13}) {
        CudaImage img;
        img.glibc();
        const std::string soname = "libcudart.so." + std::to_string(major);
        img.fs().lib(site_packages + "/nvidia/cuda_runtime/lib/" + soname, soname);
        REQUIRE(img.fs().error().empty());
        auto image = img.write();
        auto old_fleet =
            validate_findings(image, {{*cuvet::rules::Version::parse("470.223.02")}, {}, {}});
        INFO(major << "\n" << describe_findings(old_fleet));
        REQUIRE(ids_of(old_fleet).count("CUV009") == 1);
        for (const auto& f : old_fleet)
            if (f.id == "CUV009")
                CHECK(f.message.find("CUDA " + std::to_string(major) + ".x (minor unknown)") !=
                      std::string::npos);
        // 550 runs any CUDA 12 (floor 525.60.13) but no CUDA 13 (floor 580.65.06).
        auto r550 =
            validate_findings(image, {{*cuvet::rules::Version::parse("550.54.15")}, {}, {}});
        INFO(describe_findings(r550));
        CHECK(ids_of(r550).count("CUV009") == (major == 13 ? 1u : 0u));
    }
}
