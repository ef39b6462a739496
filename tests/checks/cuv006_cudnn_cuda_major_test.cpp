#include <catch2/catch.hpp>

#include "support/cuda_image.hpp"

using namespace cuvet::test;

TEST_CASE("CUV006: cuDNN built for CUDA 11 loaded with the CUDA 12 runtime", "[validate][cuv006]") {
    for (std::string package : {"8.9.2.26-1+cuda11.8", "8.9.2.26-1+cuda12.1"}) {
        CudaImage img;
        img.glibc();
        img.cuda_toolkit("12.1.105");
        img.cudnn("/usr/lib/x86_64-linux-gnu", "8.9.2", package);
        img.torch("2.1.0+cu121", "12.1",
                  {"/usr/lib/x86_64-linux-gnu/libcudnn.so.8",
                   "/usr/local/cuda-12.1/targets/x86_64-linux/lib/libcudart.so.12"});
        REQUIRE(img.fs().error().empty());
        auto findings = validate_findings(img.write());
        INFO(package << "\n" << describe_findings(findings));
        bool cuda11 = package.find("cuda11") != std::string::npos;
        CHECK(ids_of(findings).count("CUV006") == (cuda11 ? 1u : 0u));
        for (const auto& f : findings)
            if (f.id == "CUV006") {
                CHECK(f.message.find("built for CUDA 11") != std::string::npos);
                CHECK(f.message.find("libcudart.so.12") != std::string::npos);
            }
    }
}

TEST_CASE(
    "CUV006: the cuDNN torch loads is an error naming torch, a CUDA 11 copy nothing loads is info",
    "[validate][cuv006]") {
    CudaImage img;
    img.glibc();
    img.cuda_toolkit("12.1.105");
    img.cudnn("/usr/lib/x86_64-linux-gnu", "8.9.2", "8.9.2.26-1+cuda11.8");
    // A leftover cuDNN for CUDA 11 (it links libcublasLt.so.11) that nothing maps.
    img.fs().lib("/opt/old/cudnn/libcublasLt.so.11", "libcublasLt.so.11");
    img.cudnn("/opt/old/cudnn", "8.6.0", "", "", {"/opt/old/cudnn/libcublasLt.so.11"});
    img.torch("2.1.0+cu121", "12.1",
              {"/usr/lib/x86_64-linux-gnu/libcudnn.so.8",
               "/usr/local/cuda-12.1/targets/x86_64-linux/lib/libcudart.so.12"});
    REQUIRE(img.fs().error().empty());
    auto findings = validate_findings(img.write());
    INFO(describe_findings(findings));
    std::size_t errors = 0, infos = 0;
    for (const auto& f : findings) {
        if (f.id != "CUV006") continue;
        if (f.message.find("/opt/old/cudnn") != std::string::npos) {
            ++infos;
            CHECK(f.severity == cuvet::report::Severity::info);
            CHECK(f.message.find("nothing in the image loads it") != std::string::npos);
            CHECK(f.loaded_by.empty());
            continue;
        }
        ++errors;
        CHECK(f.severity == cuvet::report::Severity::error);
        CHECK(f.loaded_by == "imported by torch");
    }
    CHECK(errors == 1);
    CHECK(infos == 1);
}
