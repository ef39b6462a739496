#include <catch2/catch.hpp>

#include "support/cuda_image.hpp"
#include "support/gpu_oracle.hpp"

using namespace cuvet::test;

TEST_CASE("CUV004: TensorFlow 2.12 (built with cuDNN 8.6) loading cuDNN 8.4",
          "[validate][cuv004]") {
    for (std::string installed : {"8.4.1", "8.6.0", "8.9.7"}) {
        CudaImage img;
        img.glibc();
        img.cuda_toolkit("11.8.89");
        img.cudnn("/usr/lib/x86_64-linux-gnu", installed, installed + ".50-1+cuda11.8");
        img.tensorflow("2.12.0", "11.8", "8", {"libcudnn.so.8", "libcudart.so.11.0"});
        REQUIRE(img.fs().error().empty());
        auto findings = validate_findings(img.write());
        INFO(installed << "\n" << describe_findings(findings));
        CHECK(ids_of(findings).count("CUV004") == (installed == "8.4.1" ? 1u : 0u));
        for (const auto& f : findings) {
            if (f.id != "CUV004") continue;
            CHECK(f.message.find("built with cuDNN 8.6") != std::string::npos);
            CHECK(f.message.find("libcudnn.so.8.4.1") != std::string::npos);
            CHECK(f.fix.find("8.6") != std::string::npos);
        }
    }
}

TEST_CASE("CUV004: names the framework whose import fails", "[validate][cuv004]") {
    CudaImage img;
    img.glibc();
    img.cuda_toolkit("11.8.89");
    img.cudnn("/usr/lib/x86_64-linux-gnu", "8.4.1", "8.4.1.50-1+cuda11.8");
    img.tensorflow("2.12.0", "11.8", "8", {"libcudnn.so.8", "libcudart.so.11.0"});
    REQUIRE(img.fs().error().empty());
    auto findings = validate_findings(img.write());
    INFO(describe_findings(findings));
    REQUIRE(ids_of(findings).count("CUV004") == 1);
    for (const auto& f : findings)
        if (f.id == "CUV004") CHECK(f.loaded_by == "imported by tensorflow");
}

TEST_CASE("CUV004: quotes what that TensorFlow release prints, in its own number format",
          "[validate][cuv004]") {
    struct Case {
        std::string tensorflow, cuda, cudnn_major, installed, cuda_toolkit, quote;
    };
    const Case cases[] = {
        // The rules know the minor TensorFlow was built with, not the patch: it shows as "x".
        {"2.12.0", "11.8", "8", "8.4.1", "11.8.89",
         "\"Loaded runtime CuDNN library: 8.4.1 but source was compiled with: 8.6.x.  CuDNN "
         "library "
         "needs to have matching major version and equal or higher minor version."},
        {"1.15.0", "10.0", "7", "7.3.1", "10.0.130",
         "\"Loaded runtime CuDNN library: 7.3.1 but source was compiled with: 7.4.x.  CuDNN "
         "library "
         "major and minor version needs to match or have higher minor version in case of CuDNN 7.0 "
         "or later version."},
        // Which words 2.1 printed is not recorded: the verdict stands, without a made-up quote.
        {"2.1.0", "10.1", "7", "7.4.2", "10.1.243",
         ", which it refuses (the words this release prints are not recorded)"},
    };
    for (const auto& c : cases) {
        CudaImage img;
        img.glibc();
        img.cuda_toolkit(c.cuda_toolkit);
        const std::string major = c.cudnn_major;
        img.cudnn("/usr/lib/x86_64-linux-gnu", c.installed, c.installed + ".20-1+cuda" + c.cuda);
        img.tensorflow(c.tensorflow, c.cuda, major,
                       {"libcudnn.so." + major, "libcudart.so." + c.cuda});
        REQUIRE(img.fs().error().empty());
        auto findings = validate_findings(img.write());
        INFO(c.tensorflow << "\n" << describe_findings(findings));
        REQUIRE(ids_of(findings).count("CUV004") == 1);
        for (const auto& f : findings)
            if (f.id == "CUV004") CHECK_THAT(f.message, Catch::Contains(c.quote));
    }
}

TEST_CASE("CUV004: PyTorch 2.11's refusal, word for word what the real torch printed on the H100",
          "[validate][cuv004]") {
    // The oracle: torch 2.11.0+cu130 run on the GPU machine with its pip cuDNN removed and the
    // dpkg cuDNN 9.14 left (testdata/gpu/agreement/run5, variant pip_cudnn_removed).
    const std::string real = recorded_framework_error("pip_cudnn_removed", "torch");
    REQUIRE(real.rfind("cuDNN version incompatibility: PyTorch was compiled  against (9, 19, 0)",
                       0) == 0);

    CudaImage img;
    img.glibc();
    img.cuda_toolkit("13.0.88");
    img.cudnn("/usr/lib/x86_64-linux-gnu", "9.14.0", "9.14.0.64-1+cuda13.0");
    img.torch("2.11.0", "13.0", {"/usr/lib/x86_64-linux-gnu/libcudnn.so.9"});
    img.fs().write(site_packages + "/torch-2.11.0.dist-info/METADATA",
                   "Metadata-Version: 2.1\nName: torch\nVersion: 2.11.0\n"
                   "Requires-Dist: nvidia-cudnn-cu13==9.19.0.56; platform_system == \"Linux\"\n\n");
    REQUIRE(img.fs().error().empty());
    auto findings = validate_findings(img.write());
    INFO(describe_findings(findings));
    REQUIRE(ids_of(findings).count("CUV004") == 1);
    for (const auto& f : findings)
        if (f.id == "CUV004") CHECK_THAT(f.message, Catch::Contains("\"" + real + "\""));
}
