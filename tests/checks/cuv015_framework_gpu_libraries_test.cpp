// JAX 0.11.2 with the cuda13 plugin, laid out as pip lays it out (real
// sonames, RPATHs, dist-info), in the variants run on the H100
// (testdata/gpu/env/framework_variants.jsonl): where JAX fell back to the
// CPU, CUV015 is an error; where it started on the GPU, no CUV015.
#include <catch2/catch.hpp>
#include <filesystem>

#include "support/cuda_image.hpp"
#include "support/framework_wheels.hpp"

using namespace cuvet::test;

namespace {

std::vector<cuvet::report::Finding> findings_of(CudaImage& img) {
    REQUIRE(img.fs().error().empty());
    return validate_findings(img.write());
}

const cuvet::report::Finding* first(const std::vector<cuvet::report::Finding>& findings,
                                    const std::string& id) {
    for (const auto& f : findings)
        if (f.id == id) return &f;
    return nullptr;
}

}  // namespace

TEST_CASE(
    "CUV015: JAX's cuda13 plugin with every wheel starts on the GPU, no CUV007 'built for CUDA 12'",
    "[validate][cuv015][jax]") {
    CudaImage img;
    img.glibc();
    jax_cuda13(img);
    auto findings = findings_of(img);
    INFO(describe_findings(findings));
    CHECK(ids_of(findings).count("CUV015") == 0);
    CHECK(ids_of(findings).count("CUV007") == 0);
}

TEST_CASE("CUV015: cuSPARSE without its nvJitLink does not load, JAX runs on the CPU",
          "[validate][cuv015][jax]") {
    CudaImage img;
    img.glibc();
    jax_cuda13(img, {.drop = {"libnvJitLink.so.13"}});
    auto findings = findings_of(img);
    INFO(describe_findings(findings));
    const auto* f = first(findings, "CUV015");
    REQUIRE(f != nullptr);
    CHECK(ids_of(findings).count("CUV015") == 1);
    CHECK(f->message.find("Unable to load cuSPARSE. Is it installed?") != std::string::npos);
    CHECK(f->message.find("libnvJitLink.so.13") != std::string::npos);
    CHECK(f->message.find("Falling back to cpu") != std::string::npos);
    CHECK(f->fix.find("nvidia-nvjitlink>=13.0.39") != std::string::npos);
    // Not a compiler problem: it never gets to compile.
    CHECK(ids_of(findings).count("CUV016") == 0);
}

TEST_CASE("CUV015: no cuDNN anywhere, and the runtime wheel removed", "[validate][cuv015][jax]") {
    SECTION("no cuDNN") {
        CudaImage img;
        img.glibc();
        jax_cuda13(img, {.cudnn = false});
        auto findings = findings_of(img);
        INFO(describe_findings(findings));
        const auto* f = first(findings, "CUV015");
        REQUIRE(f != nullptr);
        CHECK(f->message.find("Unable to load cuDNN") != std::string::npos);
        CHECK(f->fix.find("nvidia-cudnn-cu13<10.0,>=9.12.0.46") != std::string::npos);
    }
    SECTION("no CUDA runtime") {
        CudaImage img;
        img.glibc();
        jax_cuda13(img, {.drop = {"libcudart.so.13"}});
        auto findings = findings_of(img);
        INFO(describe_findings(findings));
        const auto* f = first(findings, "CUV015");
        REQUIRE(f != nullptr);
        CHECK(f->message.find("Unable to load CUDA. Is it installed?") != std::string::npos);
        CHECK(f->fix.find("nvidia-cuda-runtime>=13.0.48") != std::string::npos);
    }
}

TEST_CASE("CUV015: the pip cuDNN removed, a system cuDNN 9 found by ld.so: JAX starts",
          "[validate][cuv015][jax]") {
    CudaImage img;
    img.glibc();
    jax_cuda13(img, {.cudnn = false});
    img.cudnn("/usr/lib/x86_64-linux-gnu", "9.14.0", "9.14.0.64-1");
    img.fs().write("/etc/ld.so.conf.d/x86_64-linux-gnu.conf", "/usr/lib/x86_64-linux-gnu\n");
    auto findings = findings_of(img);
    INFO(describe_findings(findings));
    CHECK(ids_of(findings).count("CUV015") == 0);
}

TEST_CASE("CUV015: jaxlib without a CUDA plugin in an image with a CUDA runtime",
          "[validate][cuv015][jax]") {
    CudaImage img;
    img.glibc();
    jax_cuda13(img, {.plugin = false});
    auto findings = findings_of(img);
    INFO(describe_findings(findings));
    const auto* f = first(findings, "CUV015");
    REQUIRE(f != nullptr);
    CHECK(f->message.find("has no CUDA plugin") != std::string::npos);
    CHECK(f->fix.find("jax[cuda13]") != std::string::npos);
    CHECK(ids_of(findings).count("CUV007") == 0);

    // The same jaxlib in an image without any CUDA: a CPU image, nothing to say.
    CudaImage cpu;
    cpu.glibc();
    cpu.fs().lib(site_packages + "/jaxlib/libjax_common.so", "libjax_common.so");
    dist_info(cpu.fs(), site_packages, "jaxlib", "0.11.2");
    auto quiet = findings_of(cpu);
    INFO(describe_findings(quiet));
    CHECK(ids_of(quiet).count("CUV015") == 0);
}

TEST_CASE("CUV015: ONNX Runtime's CUDA provider with and without its cuDNN",
          "[validate][cuv015][onnxruntime]") {
    SECTION("every library where ld.so finds it") {
        CudaImage img;
        img.glibc();
        onnxruntime_gpu(img, "/usr/lib/x86_64-linux-gnu");
        auto findings = findings_of(img);
        INFO(describe_findings(findings));
        CHECK(ids_of(findings).count("CUV015") == 0);
    }
    SECTION("no cuDNN: the provider does not load, sessions run on the CPU") {
        CudaImage img;
        img.glibc();
        onnxruntime_gpu(img, "/usr/lib/x86_64-linux-gnu", {"libcudnn.so.9"});
        auto findings = findings_of(img);
        INFO(describe_findings(findings));
        const auto* f = first(findings, "CUV015");
        REQUIRE(f != nullptr);
        CHECK(f->message.find("libcudnn.so.9: cannot open shared object file") !=
              std::string::npos);
        CHECK(f->message.find("Require cuDNN 9.* and CUDA 12.*") != std::string::npos);
        CHECK(f->fix.find("nvidia-cudnn-cu12") != std::string::npos);
    }
    SECTION("the warning that follows is the one the installed release prints") {
        const std::pair<std::string, std::string> releases[] = {
            {"1.15.1",
             "then \"Failed to create CUDAExecutionProvider. Please reference "
             "https://onnxruntime.ai/docs/execution-providers/"
             "CUDA-ExecutionProvider.html#requirements to ensure all dependencies are met.\""},
            // 1.16-1.18 printed variants no source ties to a release: no quote rather than a guess.
            {"1.17.0", ""}};
        for (const auto& [version, then] : releases) {
            CudaImage img;
            img.glibc();
            onnxruntime_gpu(img, "/usr/lib/x86_64-linux-gnu", {"libcudnn.so.9"}, version);
            auto findings = findings_of(img);
            INFO(version << "\n" << describe_findings(findings));
            const auto* f = first(findings, "CUV015");
            REQUIRE(f != nullptr);
            CHECK(f->message.find("Require cuDNN") == std::string::npos);
            if (then.empty())
                CHECK(f->message.find("\" then \"") == std::string::npos);
            else
                CHECK(f->message.find(then) != std::string::npos);
        }
    }
}

TEST_CASE("CUV015: CuPy 14 finds NVRTC and cuBLAS through cuda-pathfinder",
          "[validate][cuv015][cupy]") {
    SECTION("every wheel") {
        CudaImage img;
        img.glibc();
        cupy_cuda13x(img);
        auto findings = findings_of(img);
        INFO(describe_findings(findings));
        CHECK(ids_of(findings).count("CUV015") == 0);
        CHECK(ids_of(findings).count("CUV016") == 0);
    }
    SECTION("NVRTC removed (as nvrtc_removed on the H100)") {
        CudaImage img;
        img.glibc();
        cupy_cuda13x(img, {"libnvrtc.so.13"});
        auto findings = findings_of(img);
        INFO(describe_findings(findings));
        const auto* f = first(findings, "CUV015");
        REQUIRE(f != nullptr);
        CHECK(ids_of(findings).count("CUV015") == 1);
        CHECK(f->message.find("libnvrtc.so.13 or libnvrtc.so.12") != std::string::npos);
        CHECK(f->fix.find("nvidia-cuda-nvrtc") != std::string::npos);
    }
    SECTION("cuBLAS removed: one finding, naming cuBLASLt as CuPy does") {
        CudaImage img;
        img.glibc();
        cupy_cuda13x(img, {"libcublas.so.13", "libcublasLt.so.13"});
        auto findings = findings_of(img);
        INFO(describe_findings(findings));
        const auto* f = first(findings, "CUV015");
        REQUIRE(f != nullptr);
        CHECK(ids_of(findings).count("CUV015") == 1);
        CHECK(f->message.find("libcublasLt.so.13 or libcublasLt.so.12") != std::string::npos);
    }
    SECTION("a system NVRTC 12 where ld.so finds it: accepted, as pathfinder does") {
        CudaImage img;
        img.glibc();
        cupy_cuda13x(img, {"libnvrtc.so.13"});
        img.fs().lib("/usr/lib/x86_64-linux-gnu/libnvrtc.so.12", "libnvrtc.so.12");
        auto findings = findings_of(img);
        INFO(describe_findings(findings));
        CHECK(ids_of(findings).count("CUV015") == 0);
    }
}

// cupy_backends/cuda/libs/cublas.so needs libcublas.so.13 and has no RPATH: ld.so
// alone would not find it, but cuda-pathfinder loads the wheel's copy first
// (as_built on the H100: CuPy works). cuTENSOR is an optional feature.
static const cuvet::report::Finding* error_naming(
    const std::vector<cuvet::report::Finding>& findings, const std::string& id,
    const std::string& text) {
    for (const auto& f : findings)
        if (f.id == id && f.severity == cuvet::report::Severity::error &&
            f.message.find(text) != std::string::npos)
            return &f;
    return nullptr;
}

TEST_CASE("CUV001: CuPy's backend modules load what cuda-pathfinder preloads",
          "[validate][cuv001][cupy]") {
    SECTION("every wheel: no error for libcublas.so.13 or the optional libcutensor.so.2") {
        CudaImage img;
        img.glibc();
        cupy_cuda13x(img);
        auto findings = findings_of(img);
        INFO(describe_findings(findings));
        CHECK(error_naming(findings, "CUV001", "libcublas.so.13") == nullptr);
        CHECK(error_naming(findings, "CUV001", "libcutensor.so.2") == nullptr);
    }
    SECTION("the same modules without CuPy's dist-info: nothing preloads, ld.so fails") {
        CudaImage img;
        img.glibc();
        cupy_cuda13x(img);
        std::filesystem::remove_all(
            img.fs().host(site_packages + "/cupy-cuda13x-14.2.0.dist-info"));
        std::filesystem::remove_all(
            img.fs().host(site_packages + "/cupy_cuda13x-14.2.0.dist-info"));
        std::filesystem::remove(img.fs().host(site_packages + "/cupy/_version.py"));
        auto findings = findings_of(img);
        INFO(describe_findings(findings));
        CHECK(error_naming(findings, "CUV001", "libcublas.so.13") != nullptr);
    }
    SECTION("cuFFT removed: only cupy.fft, which imports cupy.cuda.cufft on first use, fails") {
        CudaImage img;
        img.glibc();
        cupy_cuda13x(img);
        // The wheel's module links libcufft.so.12 (run 13's report); built, linked, removed.
        const std::string build = site_packages + "/.build";
        img.fs().lib(build + "/libcufft.so.12", "libcufft.so.12");
        img.fs().lib(site_packages + "/cupy/cuda/cufft.cpython-312-x86_64-linux-gnu.so",
                     "cufft.cpython-312-x86_64-linux-gnu.so", {build + "/libcufft.so.12"});
        std::filesystem::remove_all(img.fs().host(build));
        auto findings = findings_of(img);
        INFO(describe_findings(findings));
        CHECK(error_naming(findings, "CUV001", "libcufft.so.12") == nullptr);
        bool warned = false;
        for (const auto& f : findings)
            warned |= f.id == "CUV001" && f.severity == cuvet::report::Severity::warning &&
                      f.message.find("libcufft.so.12") != std::string::npos &&
                      f.message.find("first use of cupy.fft: that call raises ImportError") !=
                          std::string::npos;
        CHECK(warned);
    }
    SECTION("cuBLAS removed: the module's DT_NEEDED fails too") {
        CudaImage img;
        img.glibc();
        cupy_cuda13x(img, {"libcublas.so.13"});
        auto findings = findings_of(img);
        INFO(describe_findings(findings));
        CHECK(error_naming(findings, "CUV001", "libcublas.so.13") != nullptr);
    }
}

TEST_CASE("CUV015: jax-cuda13-plugin uninstalled, the pjrt kept (as on the H100)",
          "[validate][cuv015][jax]") {
    CudaImage img;
    img.glibc();
    jax_cuda13(img);
    std::filesystem::remove_all(img.fs().host(site_packages + "/jax_cuda13_plugin"));
    std::filesystem::remove_all(
        img.fs().host(site_packages + "/jax_cuda13_plugin-0.11.2.dist-info"));
    auto findings = findings_of(img);
    INFO(describe_findings(findings));
    const auto* f = first(findings, "CUV015");
    REQUIRE(f != nullptr);
    CHECK(f->message.find("not jax-cuda13-plugin") != std::string::npos);
    CHECK(f->message.find("assert cuda_versions is not None") != std::string::npos);
}
