#include <catch2/catch.hpp>

#include "support/cuda_image.hpp"

using namespace cuvet::test;

TEST_CASE("CUV003: two cuDNN copies of different versions, and which one torch loads",
          "[validate][cuv003]") {
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
            CHECK(f.message.find("Consumers load: " + site_packages +
                                 "/nvidia/cudnn/lib/libcudnn.so.8") != std::string::npos);
        }
    }
}

TEST_CASE("CUV003: two copies nothing loads are info, one a root loads names the root",
          "[validate][cuv003]") {
    for (bool loaded : {true, false}) {
        CudaImage img;
        img.glibc();
        img.cuda_toolkit("12.1.105");
        img.cudnn("/usr/lib/x86_64-linux-gnu", "8.6.0");
        img.cudnn("/opt/other/lib", "8.9.2");
        if (loaded) {
            img.fs().exe("/opt/app/bin/infer", {"/opt/other/lib/libcudnn.so.8.9.2"},
                         "-Wl,--enable-new-dtags,-rpath,/opt/other/lib");
            img.entrypoint = {"/opt/app/bin/infer"};
        }
        REQUIRE(img.fs().error().empty());
        auto findings = validate_findings(img.write());
        INFO(describe_findings(findings));
        REQUIRE(ids_of(findings).count("CUV003") == 1);
        for (const auto& f : findings) {
            if (f.id != "CUV003") continue;
            // One copy mapped, the other by nothing: which one wins is settled (issue 24), so info.
            CHECK(f.severity == cuvet::report::Severity::info);
            CHECK(f.loaded_by == (loaded ? "ENTRYPOINT /opt/app/bin/infer" : ""));
            CHECK((f.message.find("Nothing in the image loads them") != std::string::npos) ==
                  !loaded);
        }
    }
}
