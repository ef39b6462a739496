#include <catch2/catch.hpp>

#include "support/cuda_image.hpp"

using namespace cuvet::test;

TEST_CASE(
    "CUV014: CUDA_VERSION, NVIDIA_REQUIRE_CUDA and NV_CUDNN_VERSION against what the image holds",
    "[validate][cuv014]") {
    auto findings_for = [](std::vector<std::string> env) {
        CudaImage img;
        img.glibc();
        img.cuda_toolkit("12.1.105");
        img.cudnn("/usr/lib/x86_64-linux-gnu", "8.9.2", "8.9.2.26-1+cuda12.1");
        for (auto& e : env) img.env.push_back(e);
        REQUIRE(img.fs().error().empty());
        return validate_findings(img.write());
    };
    auto bad = findings_for({"CUDA_VERSION=11.8.0",
                             "NVIDIA_REQUIRE_CUDA=cuda>=11.8 brand=tesla,driver>=470,driver<471",
                             "NV_CUDNN_VERSION=8.6.0.163"});
    INFO(describe_findings(bad));
    CHECK(ids_of(bad).count("CUV014") == 3);
    bool fix_names_value = false;
    for (const auto& f : bad)
        fix_names_value =
            fix_names_value ||
            (f.id == "CUV014" && f.fix.find("CUDA_VERSION=12.1.105") != std::string::npos);
    CHECK(fix_names_value);
    auto good = findings_for({"CUDA_VERSION=12.1.105",
                              "NVIDIA_REQUIRE_CUDA=cuda>=12.1 brand=tesla,driver>=525,driver<526",
                              "NV_CUDNN_VERSION=8.9.2.26"});
    INFO(describe_findings(good));
    CHECK(ids_of(good).count("CUV014") == 0);
}

TEST_CASE(
    "CUV014: a warning naming the root when something loads the runtime the variable describes, "
    "else info",
    "[validate][cuv014]") {
    for (bool loaded : {true, false}) {
        CudaImage img;
        img.glibc();
        img.cuda_toolkit("12.1.105");
        img.env.push_back("CUDA_VERSION=11.8.0");
        if (loaded) {
            img.fs().exe("/opt/app/bin/infer",
                         {"/usr/local/cuda-12.1/targets/x86_64-linux/lib/libcudart.so.12"});
            img.entrypoint = {"/opt/app/bin/infer"};
        }
        REQUIRE(img.fs().error().empty());
        auto findings = validate_findings(img.write());
        INFO(describe_findings(findings));
        REQUIRE(ids_of(findings).count("CUV014") == 1);
        for (const auto& f : findings) {
            if (f.id != "CUV014") continue;
            CHECK(f.severity ==
                  (loaded ? cuvet::report::Severity::warning : cuvet::report::Severity::info));
            CHECK(f.loaded_by == (loaded ? "ENTRYPOINT /opt/app/bin/infer" : ""));
            CHECK((f.message.find("nothing in the image loads its CUDA 12.1 runtime") !=
                   std::string::npos) == !loaded);
        }
    }
}
