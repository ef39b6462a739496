#include <catch2/catch.hpp>

#include "support/cuda_image.hpp"

using namespace cuvet::test;

TEST_CASE("CUV011: an x86-64 extension module in an arm64 image is an error",
          "[validate][cuv011]") {
    for (std::string arch : {"arm64", "amd64"}) {
        CudaImage img;
        img.architecture = arch;
        img.fs().lib(site_packages + "/kernels/_ops.so", "_ops.so");
        REQUIRE(img.fs().error().empty());
        auto findings = validate_findings(img.write());
        INFO(arch << "\n" << describe_findings(findings));
        CHECK(ids_of(findings).count("CUV011") == (arch == "arm64" ? 1u : 0u));
        for (const auto& f : findings) {
            if (f.id != "CUV011") continue;
            CHECK(f.severity == cuvet::report::Severity::error);
            CHECK(f.message.find("x86-64") != std::string::npos);
            CHECK(f.loaded_by == "imported by kernels");
        }
    }
}

TEST_CASE("CUV011: wrong-machine files nothing loads are one info per directory",
          "[validate][cuv011]") {
    // As the i386 multilib in /usr/lib32: ld.so of the image never maps them.
    CudaImage img;
    img.architecture = "arm64";
    img.fs().lib("/usr/lib32/libm.so.6", "libm.so.6");
    img.fs().lib("/usr/lib32/libz.so.1", "libz.so.1");
    img.fs().lib("/usr/lib32/gconv/IBM037.so", "IBM037.so");
    img.fs().lib("/usr/local/cuda/compute-sanitizer/x86/libsanitizer.so", "libsanitizer.so");
    REQUIRE(img.fs().error().empty());
    auto findings = validate_findings(img.write());
    INFO(describe_findings(findings));
    REQUIRE(ids_of(findings).count("CUV011") == 2);
    for (const auto& f : findings) {
        CHECK(f.severity == cuvet::report::Severity::info);
        if (f.message.find("/usr/lib32") != std::string::npos)
            CHECK(f.message.find("3 files under /usr/lib32 are built for x86-64") !=
                  std::string::npos);
        else
            CHECK(f.message.find("libsanitizer.so is built for x86-64") != std::string::npos);
        CHECK(f.message.find("nothing in the image loads") != std::string::npos);
    }
}
