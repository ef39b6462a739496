#include <catch2/catch.hpp>

#include "support/cuda_image.hpp"
#include "support/elf_fixtures.hpp"
#include "support/skip.hpp"

using namespace cuvet::test;

TEST_CASE("CUV010: a fatbin with sm_80 SASS and compute_90 PTX runs on A10 and H100, not on T4",
          "[validate][cuv010]") {
    const auto& fixtures = elf_fixtures();
    if (fixtures.cuda.empty()) {
        CUVET_SKIP("skipped: no nvcc, no fatbin fixture");
    }
    CudaImage img;
    img.glibc();
    std::filesystem::create_directories(img.fs().host(site_packages + "/torch/lib"));
    std::filesystem::copy_file(fixtures.cuda,
                               img.fs().host(site_packages + "/torch/lib/libkern.so"));
    // What the image runs loads the kernel library: only then can a missing architecture break it.
    img.fs().exe("/usr/bin/app", {site_packages + "/torch/lib/libkern.so"},
                 "-Wl,-rpath," + site_packages + "/torch/lib");
    img.entrypoint = {"/usr/bin/app"};
    REQUIRE(img.fs().error().empty());
    auto image = img.write();
    auto t4 = validate_findings(image, {{}, {"T4"}, {}});
    INFO(describe_findings(t4));
    REQUIRE(ids_of(t4).count("CUV010") == 1);
    for (const auto& f : t4)
        if (f.id == "CUV010") {
            CHECK(f.message.find("libkern.so") != std::string::npos);
            CHECK(f.message.find("sm_80") != std::string::npos);
            CHECK(f.fix.find("sm_75") != std::string::npos);
        }
    auto fine = validate_findings(image, {{}, {"8.6", "H100", "sm_80"}, {}});
    INFO(describe_findings(fine));
    CHECK(ids_of(fine).count("CUV010") == 0);
}
