// CUV020: the image's Env as the NVIDIA container runtime and CUDA read it.
#include <catch2/catch.hpp>

#include "support/cuda_image.hpp"

using namespace cuvet::test;
using cuvet::report::Severity;

namespace {

const std::string cudart = "/usr/local/cuda-12.1/targets/x86_64-linux/lib/libcudart.so.12";

std::vector<cuvet::report::Finding> torch_with(const std::vector<std::string>& env,
                                               const std::vector<std::string>& drivers) {
    CudaImage img;
    img.glibc();
    img.cuda_toolkit("12.1.105");
    img.torch("2.1.0+cu121", "12.1", {cudart});
    img.env.insert(img.env.end(), env.begin(), env.end());
    cuvet::stack::Targets targets;
    for (const auto& d : drivers) targets.drivers.push_back(*cuvet::rules::Version::parse(d));
    return validate_findings(img.write(), targets);
}

std::vector<const cuvet::report::Finding*> cuv020(
    const std::vector<cuvet::report::Finding>& findings) {
    std::vector<const cuvet::report::Finding*> out;
    for (const auto& f : findings)
        if (f.id == "CUV020") out.push_back(&f);
    return out;
}

}  // namespace

TEST_CASE("CUV020: Env settings that hide the GPU from torch", "[checks][cuv020][slow]") {
    struct Case {
        std::string env;
        std::string says;
        bool toolkit_mode;
    };
    for (const auto& c : std::vector<Case>{
             {"CUDA_VISIBLE_DEVICES=-1", "CUDA enumerates no device", false},
             {"CUDA_VISIBLE_DEVICES=", "CUDA enumerates no device", false},
             {"NVIDIA_VISIBLE_DEVICES=void", "no GPU device and no driver library", true},
             {"NVIDIA_VISIBLE_DEVICES=none", "no GPU device is injected", true},
             {"NVIDIA_DRIVER_CAPABILITIES=utility,video", "lack `compute`", true},
         }) {
        DYNAMIC_SECTION(c.env) {
            const auto findings = torch_with({c.env}, {"550.54.15"});
            INFO(describe_findings(findings));
            const auto found = cuv020(findings);
            REQUIRE(found.size() == 1);
            CHECK(found.front()->severity == Severity::error);
            CHECK(found.front()->message.find(c.says) != std::string::npos);
            CHECK(found.front()->loaded_by == "imported by torch");
            CHECK((found.front()->message.find("legacy mode") != std::string::npos) ==
                  c.toolkit_mode);
            // Without a GPU target the image may be meant for CPUs: a warning.
            const auto untargeted_findings = torch_with({c.env}, {});
            const auto untargeted = cuv020(untargeted_findings);
            REQUIRE(untargeted.size() == 1);
            CHECK(untargeted.front()->severity == Severity::warning);
        }
    }
    SECTION("settings that leave the GPU in place") {
        const auto findings = torch_with({"CUDA_VISIBLE_DEVICES=0", "NVIDIA_VISIBLE_DEVICES=all",
                                          "NVIDIA_DRIVER_CAPABILITIES=compute,utility"},
                                         {"550.54.15"});
        INFO(describe_findings(findings));
        CHECK(cuv020(findings).empty());
        CHECK(cuv020(torch_with({"NVIDIA_DRIVER_CAPABILITIES=all"}, {"550.54.15"})).empty());
        CHECK(cuv020(torch_with({"NVIDIA_DRIVER_CAPABILITIES="}, {"550.54.15"})).empty());
    }
}

TEST_CASE("CUV020: NVIDIA_REQUIRE_CUDA against the --driver targets", "[checks][cuv020]") {
    const std::string require = "NVIDIA_REQUIRE_CUDA=cuda>=12.4 brand=tesla,driver>=470,driver<471";
    SECTION("no alternative holds on 535: the runtime refuses to start") {
        const auto findings = torch_with({require}, {"535.104.05"});
        INFO(describe_findings(findings));
        const auto found = cuv020(findings);
        REQUIRE(found.size() == 1);
        CHECK(found.front()->severity == Severity::error);
        CHECK(found.front()->message.find("535.104.05") != std::string::npos);
        CHECK(found.front()->message.find("unsatisfied condition") != std::string::npos);
    }
    SECTION("550 runs CUDA 12.4: it starts") {
        CHECK(cuv020(torch_with({require}, {"550.54.15"})).empty());
    }
    SECTION("a 470 driver matches the brand alternative, which cannot be judged here: silent") {
        CHECK(cuv020(torch_with({require}, {"470.82.01"})).empty());
    }
    SECTION("NVIDIA_DISABLE_REQUIRE turns the check off, as it does the runtime's") {
        CHECK(cuv020(torch_with({require, "NVIDIA_DISABLE_REQUIRE=1"}, {"535.104.05"})).empty());
    }
}
