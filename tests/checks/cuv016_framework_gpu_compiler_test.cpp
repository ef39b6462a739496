// Where XLA looks for ptxas and libdevice, against the H100 variants
// (testdata/gpu/env/framework_variants.jsonl): as built (no nvcc wheel, no
// toolkit) the first jit fails; a toolkit at /usr/local/cuda or its bin on
// PATH fixes it; a ptxas elsewhere (torch/bin) does not.
#include <catch2/catch.hpp>

#include "support/cuda_image.hpp"
#include "support/framework_wheels.hpp"
#include "support/skip.hpp"

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

TEST_CASE(
    "CUV016: Triton (torch.compile) needs a C compiler on PATH: a warning, as on the H100 roots",
    "[validate][cuv016][triton][slow]") {
    auto torch_with_triton = [](CudaImage& img) {
        img.glibc();
        img.cuda_toolkit("12.1.105");
        img.torch("2.1.0+cu121", "12.1",
                  {"/usr/local/cuda-12.1/targets/x86_64-linux/lib/libcudart.so.12"});
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

namespace {

// A program whose .rodata holds the banner NVIDIA's ptxas prints for --version.
void ptxas_stand_in(CudaImage& img, const std::string& path, const std::string& release) {
    auto minor = release.substr(0, release.rfind('.'));
    img.fs().exe_source(
        path,
        "static const char banner[] = \"ptxas: NVIDIA (R) Ptx optimizing assembler\\n"
        "Cuda compilation tools, release " +
            minor + ", V" + release + "\\n\";\nint main(void) { return banner[0]; }\n");
}

// torch with Triton 3.6's layout as on the H100 (testdata/gpu/env/triton_tensorrt_facts.txt):
// bin/ptxas from CUDA 12.8.93, bin/ptxas-blackwell from 12.9.86; gcc on PATH.
void torch_with_triton_36(CudaImage& img, bool blackwell = true) {
    img.glibc();
    img.cuda_toolkit("12.8.93");
    img.torch("2.11.0+cu128", "12.8",
              {"/usr/local/cuda-12.8/targets/x86_64-linux/lib/libcudart.so.12"});
    img.fs().write("/usr/bin/gcc", "#!/bin/sh\n");
    const auto bin = site_packages + "/triton/backends/nvidia/bin";
    ptxas_stand_in(img, bin + "/ptxas", "12.8.93");
    if (blackwell) ptxas_stand_in(img, bin + "/ptxas-blackwell", "12.9.86");
    img.fs().write(site_packages + "/triton/__init__.py", "__version__ = '3.6.0'\n");
}

std::vector<cuvet::report::Finding> triton_ptxas_findings(CudaImage& img,
                                                          std::vector<std::string> gpus) {
    REQUIRE(img.fs().error().empty());
    std::vector<cuvet::report::Finding> out;
    for (auto& f : validate_findings(img.write(), {.gpus = std::move(gpus)}))
        if (f.id == "CUV016" && f.message.find("Triton assembles with") != std::string::npos)
            out.push_back(std::move(f));
    return out;
}

// A Triton without ptxas-blackwell whose bundled ptxas is from `release`: its one finding.
cuvet::report::Finding bundled_ptxas_finding(const std::string& release,
                                             std::vector<std::string> gpus) {
    CudaImage img;
    torch_with_triton_36(img, false);
    ptxas_stand_in(img, site_packages + "/triton/backends/nvidia/bin/ptxas", release);
    auto findings = triton_ptxas_findings(img, std::move(gpus));
    INFO(describe_findings(findings));
    REQUIRE(findings.size() == 1);
    return findings[0];
}

bool copy_real_ptxas(CudaImage& img, const std::string& path) {
    const std::filesystem::path real = "/usr/local/cuda/bin/ptxas";
    if (!std::filesystem::is_regular_file(real)) return false;
    std::filesystem::create_directories(img.fs().host(path).parent_path());
    std::filesystem::copy_file(real, img.fs().host(path),
                               std::filesystem::copy_options::overwrite_existing);
    return true;
}

}  // namespace

TEST_CASE("CUV016: Triton's bundled ptxas must know the --gpu target",
          "[validate][cuv016][triton]") {
    SECTION(
        "H100, B200 and DGX Spark: Triton 3.6's ptxas 12.8 and ptxas-blackwell 12.9 know them") {
        CudaImage img;
        torch_with_triton_36(img);
        auto findings = triton_ptxas_findings(img, {"H100", "B200", "DGX Spark"});
        INFO(describe_findings(findings));
        CHECK(findings.empty());
    }
    SECTION("Jetson Thor: sm_110a came with CUDA 13.0, ptxas-blackwell is 12.9 (server#8632)") {
        CudaImage img;
        torch_with_triton_36(img);
        auto findings = triton_ptxas_findings(img, {"Jetson Thor"});
        INFO(describe_findings(findings));
        REQUIRE(findings.size() == 1);
        const auto& f = findings[0];
        CHECK(f.severity == cuvet::report::Severity::warning);
        CHECK_THAT(f.message, Catch::Contains("bin/ptxas-blackwell from CUDA 12.9.86"));
        CHECK_THAT(f.message,
                   Catch::Contains("ptxas-blackwell fatal   : Value 'sm_110a' is not defined"));
        CHECK_THAT(f.message, Catch::Contains("first in CUDA 13.0"));
        CHECK_THAT(f.fix, Catch::StartsWith("Set TRITON_PTXAS_BLACKWELL_PATH to a ptxas that knows "
                                            "sm_110a (CUDA 13.0 or newer)"));
    }
    SECTION("an older Triton without ptxas-blackwell: bin/ptxas 12.4 has no sm_120 (RTX 5090)") {
        auto f = bundled_ptxas_finding("12.4.131", {"RTX 5090", "A100"});
        CHECK_THAT(f.message, Catch::Contains("RTX 5090 (sm_120"));
        CHECK_THAT(f.message, Catch::Contains("ptxas fatal   : Value 'sm_120"));
        CHECK_THAT(f.message, !Catch::Contains("A100"));
        CHECK_THAT(f.fix, Catch::StartsWith("Set TRITON_PTXAS_PATH"));
    }
    SECTION(
        "the real CUDA toolkit ptxas in the image: the fix names it, and pointing Triton at it "
        "clears it") {
        CudaImage img;
        torch_with_triton_36(img);
        if (!copy_real_ptxas(img, "/usr/local/cuda-12.8/bin/ptxas")) {
            CUVET_SKIP("skipped: no /usr/local/cuda/bin/ptxas on this machine");
        }
        auto findings = triton_ptxas_findings(img, {"Jetson Thor"});
        INFO(describe_findings(findings));
        REQUIRE(findings.size() == 1);
        // The real ptxas's release is read from the file as the scan streams it (13.0 on these
        // machines).
        CHECK_THAT(findings[0].fix,
                   Catch::Contains("the image has /usr/local/cuda-12.8/bin/ptxas (CUDA 13."));
        CudaImage fixed;
        torch_with_triton_36(fixed);
        REQUIRE(copy_real_ptxas(fixed, "/usr/local/cuda-12.8/bin/ptxas"));
        fixed.env.push_back("TRITON_PTXAS_BLACKWELL_PATH=/usr/local/cuda/bin/ptxas");
        auto after = triton_ptxas_findings(fixed, {"Jetson Thor"});
        INFO(describe_findings(after));
        CHECK(after.empty());
    }
    SECTION("a Triton bundling a CUDA 13 ptxas: no sm_70 (V100), as the real ptxas 13 refuses") {
        auto f = bundled_ptxas_finding("13.0.88", {"V100", "T4"});
        CHECK_THAT(f.message, Catch::Contains("V100 (sm_70, last in CUDA 12.9)"));
        CHECK_THAT(f.fix, Catch::Contains("CUDA 12.9 or older"));
    }
}

TEST_CASE(
    "CUV016: TRITON_PTXAS_PATH to an older ptxas than the bundled one (the H100's CUDA 11.8 "
    "variant)",
    "[validate][cuv016][triton]") {
    // As run on the H100 (testdata/gpu/agreement/run5): Debian's CUDA 11.8 ptxas has no sm_90a,
    // and Triton's PTXASError said so; the bundled 12.8 ptxas would have worked.
    CudaImage img;
    torch_with_triton_36(img);
    ptxas_stand_in(img, "/opt/cuda-11.8/bin/ptxas", "11.8.89");
    img.env.push_back("TRITON_PTXAS_PATH=/opt/cuda-11.8/bin/ptxas");
    auto findings = triton_ptxas_findings(img, {"H100"});
    INFO(describe_findings(findings));
    REQUIRE(findings.size() == 1);
    const auto& f = findings[0];
    CHECK_THAT(f.message, Catch::Contains("/opt/cuda-11.8/bin/ptxas from CUDA 11.8.89"));
    CHECK_THAT(f.message, Catch::Contains("ptxas fatal   : Value 'sm_90a' is not defined"));
    CHECK_THAT(f.fix, Catch::StartsWith("Unset TRITON_PTXAS_PATH: Triton's bundled"));
    CHECK_THAT(f.fix, Catch::Contains("(CUDA 12.8.93) knows sm_90a"));
    bool sourced = false;
    for (const auto& e : f.evidence)
        sourced = sourced || e.find("ptx-isa-sm90a") != std::string::npos;
    CHECK(sourced);
}
