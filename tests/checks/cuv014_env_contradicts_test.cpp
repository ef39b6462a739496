#include <catch2/catch.hpp>

#include "support/cuda_image.hpp"

using namespace cuvet::test;

TEST_CASE("CUV014: CUDA_VERSION, NVIDIA_REQUIRE_CUDA and NV_CUDNN_VERSION against what the image holds", "[validate][cuv014]") {
    auto findings_for = [](std::vector<std::string> env) {
        CudaImage img;
        img.glibc();
        img.cuda_toolkit("12.1.105");
        img.cudnn("/usr/lib/x86_64-linux-gnu", "8.9.2", "8.9.2.26-1+cuda12.1");
        for (auto& e : env) img.env.push_back(e);
        REQUIRE(img.fs().error().empty());
        return validate_findings(img.write());
    };
    auto bad = findings_for({"CUDA_VERSION=11.8.0", "NVIDIA_REQUIRE_CUDA=cuda>=11.8 brand=tesla,driver>=470,driver<471",
                             "NV_CUDNN_VERSION=8.6.0.163"});
    INFO(describe_findings(bad));
    CHECK(ids_of(bad).count("CUV014") == 3);
    bool fix_names_value = false;
    for (const auto& f : bad) fix_names_value = fix_names_value || (f.id == "CUV014" && f.fix.find("CUDA_VERSION=12.1.105") != std::string::npos);
    CHECK(fix_names_value);
    auto good = findings_for({"CUDA_VERSION=12.1.105", "NVIDIA_REQUIRE_CUDA=cuda>=12.1 brand=tesla,driver>=525,driver<526",
                              "NV_CUDNN_VERSION=8.9.2.26"});
    INFO(describe_findings(good));
    CHECK(ids_of(good).count("CUV014") == 0);
}
