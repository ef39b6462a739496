// Where XLA looks for ptxas and libdevice, against the H100 variants
// (testdata/gpu/env/framework_variants.jsonl): as built (no nvcc wheel, no
// toolkit) the first jit fails; a toolkit at /usr/local/cuda or its bin on
// PATH fixes it; a ptxas elsewhere (torch/bin) does not.
#include <catch2/catch.hpp>

#include "support/cuda_image.hpp"
#include "support/framework_wheels.hpp"

using namespace cuvet::test;

namespace {

std::vector<cuvet::report::Finding> cuv016(CudaImage& img) {
    REQUIRE(img.fs().error().empty());
    std::vector<cuvet::report::Finding> out;
    for (auto& f : validate_findings(img.write()))
        if (f.id == "CUV016") out.push_back(std::move(f));
    return out;
}

}  // namespace

TEST_CASE("CUV016: the nvcc wheel puts ptxas where XLA looks", "[validate][cuv016][jax]") {
    CudaImage img;
    img.glibc();
    jax_cuda13(img);
    auto findings = cuv016(img);
    INFO(describe_findings(findings));
    CHECK(findings.empty());
}

TEST_CASE("CUV016: no ptxas where XLA looks (as built on the H100, a ptxas only under torch/bin)",
          "[validate][cuv016][jax]") {
    CudaImage img;
    img.glibc();
    jax_cuda13(img, {.nvcc = false, .nvvm = false});
    img.fs().exe(site_packages + "/torch/bin/ptxas");
    auto findings = cuv016(img);
    INFO(describe_findings(findings));
    REQUIRE(findings.size() == 1);
    const auto& f = findings[0];
    CHECK(f.severity == cuvet::report::Severity::error);
    CHECK(f.message.find("No candidates could be compiled") != std::string::npos);
    CHECK(f.fix.find("nvidia-cuda-nvcc") != std::string::npos);
    bool searched_toolkit = false, searched_torch = false;
    for (const auto& e : f.evidence) {
        searched_toolkit =
            searched_toolkit || e.find("/usr/local/cuda/bin/ptxas") != std::string::npos;
        searched_torch = searched_torch || e.find("torch/bin") != std::string::npos;
    }
    CHECK(searched_toolkit);
    CHECK_FALSE(searched_torch);
}

TEST_CASE("CUV016: a toolkit at /usr/local/cuda, or its bin on PATH", "[validate][cuv016][jax]") {
    SECTION("/usr/local/cuda") {
        CudaImage img;
        img.glibc();
        jax_cuda13(img, {.nvcc = false, .nvvm = false});
        img.fs().exe("/usr/local/cuda-13.0/bin/ptxas");
        img.fs().write("/usr/local/cuda-13.0/nvvm/libdevice/libdevice.10.bc", "BC");
        img.fs().symlink("/usr/local/cuda", "cuda-13.0");
        auto findings = cuv016(img);
        INFO(describe_findings(findings));
        CHECK(findings.empty());
    }
    SECTION("PATH") {
        CudaImage img;
        img.glibc();
        jax_cuda13(img, {.nvcc = false});
        img.fs().exe("/opt/nvidia/cuda-13/bin/ptxas");
        img.env = {"PATH=/opt/nvidia/cuda-13/bin:/usr/bin:/bin"};
        auto findings = cuv016(img);
        INFO(describe_findings(findings));
        CHECK(findings.empty());
    }
}

TEST_CASE("CUV016: ptxas found, libdevice nowhere: XLA's warning", "[validate][cuv016][jax]") {
    CudaImage img;
    img.glibc();
    jax_cuda13(img, {.nvvm = false});
    auto findings = cuv016(img);
    INFO(describe_findings(findings));
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].severity == cuvet::report::Severity::warning);
    CHECK(findings[0].message.find("Can't find libdevice directory") != std::string::npos);
}

TEST_CASE("CUV016: CuPy's kernels need the CUDA headers", "[validate][cuv016][cupy]") {
    SECTION("the runtime wheel's headers removed (as cuda_runtime_removed on the H100)") {
        CudaImage img;
        img.glibc();
        cupy_cuda13x(img, {}, false);
        auto findings = cuv016(img);
        INFO(describe_findings(findings));
        REQUIRE(findings.size() == 1);
        CHECK(findings[0].message.find("Failed to find CUDA headers") != std::string::npos);
        CHECK(findings[0].fix.find("nvidia-cuda-runtime") != std::string::npos);
    }
    SECTION("a toolkit's headers at /usr/local/cuda") {
        CudaImage img;
        img.glibc();
        cupy_cuda13x(img, {}, false);
        img.fs().write("/usr/local/cuda-13.0/include/cuda_runtime.h",
                       "#define CUDART_VERSION 13000\n");
        img.fs().symlink("/usr/local/cuda", "cuda-13.0");
        auto findings = cuv016(img);
        INFO(describe_findings(findings));
        CHECK(findings.empty());
    }
}

TEST_CASE("CUV016: Triton (torch.compile) needs a C compiler on PATH: a warning, as on the H100 roots",
          "[validate][cuv016][triton]") {
    auto torch_with_triton = [](CudaImage& img) {
        img.glibc();
        img.cuda_toolkit("12.1.105");
        img.torch("2.1.0+cu121", "12.1", {"/usr/local/cuda-12.1/targets/x86_64-linux/lib/libcudart.so.12"});
        img.fs().write(site_packages + "/triton/backends/nvidia/bin/ptxas", "#!/bin/sh\n");
        img.fs().write(site_packages + "/triton/__init__.py", "__version__ = '2.1.0'\n");
    };
    auto triton_warnings = [](const std::vector<cuvet::report::Finding>& findings) {
        int n = 0;
        for (const auto& f : findings)
            if (f.id == "CUV016" && f.message.find("Triton") != std::string::npos) {
                CHECK(f.severity == cuvet::report::Severity::warning);
                n += f.message.find("Failed to find C compiler") != std::string::npos;
            }
        return n;
    };
    SECTION("no gcc or clang anywhere on PATH") {
        CudaImage img;
        torch_with_triton(img);
        REQUIRE(img.fs().error().empty());
        auto findings = validate_findings(img.write());
        INFO(describe_findings(findings));
        CHECK(triton_warnings(findings) == 1);
    }
    SECTION("gcc in /usr/bin") {
        CudaImage img;
        torch_with_triton(img);
        img.fs().write("/usr/bin/gcc", "#!/bin/sh\n");
        REQUIRE(img.fs().error().empty());
        auto findings = validate_findings(img.write());
        INFO(describe_findings(findings));
        CHECK(triton_warnings(findings) == 0);
    }
}
