#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>

#include "support/cuda_image.hpp"
#include "support/gpu_oracle.hpp"

using namespace cuvet::test;

namespace {
const std::string lib_dir = "/usr/lib/x86_64-linux-gnu";
}

TEST_CASE("CUV001: a needed cuDNN that nothing provides is reported with its search trace",
          "[validate][cuv001]") {
    CudaImage img;
    img.glibc();
    img.cuda_toolkit("12.1.105");
    // Linked against a cuDNN that is then left out of the image.
    img.fs().lib("/opt/stage/libcudnn.so.8", "libcudnn.so.8");
    img.torch("2.1.0+cu121", "12.1",
              {"/opt/stage/libcudnn.so.8",
               "/usr/local/cuda-12.1/targets/x86_64-linux/lib/libcudart.so.12"});
    std::filesystem::remove_all(img.fs().host("/opt/stage"));
    REQUIRE(img.fs().error().empty());
    auto findings = validate_findings(img.write());
    INFO(describe_findings(findings));
    REQUIRE(ids_of(findings).count("CUV001") == 1);
    const auto& f = *std::find_if(findings.begin(), findings.end(),
                                  [](const auto& x) { return x.id == "CUV001"; });
    CHECK(f.message.find("libcudnn.so.8") != std::string::npos);
    CHECK(f.message.find("libtorch_cuda.so") != std::string::npos);
    bool traced = false;
    for (const auto& e : f.evidence)
        traced = traced || e.find("nvidia/cudnn/lib/libcudnn.so.8") != std::string::npos;
    CHECK(traced);  // the RUNPATH candidate is in the trace
}

TEST_CASE("CUV001: nothing reported when the loader finds every library", "[validate][cuv001]") {
    CudaImage img;
    img.glibc();
    img.cuda_toolkit("12.1.105");
    img.cudnn(lib_dir, "8.9.2");
    img.torch("2.1.0+cu121", "12.1",
              {lib_dir + "/libcudnn.so.8",
               "/usr/local/cuda-12.1/targets/x86_64-linux/lib/libcudart.so.12"});
    REQUIRE(img.fs().error().empty());
    auto findings = validate_findings(img.write());
    INFO(describe_findings(findings));
    CHECK(ids_of(findings).count("CUV001") == 0);
}

namespace {

// torch 2.x as it imports: torch/_C.so (RUNPATH $ORIGIN/lib) maps torch/lib.
void torch_with_module(CudaImage& img) {
    img.glibc();
    img.cuda_toolkit("12.1.105");
    img.cudnn(lib_dir, "8.9.2");
    img.torch("2.1.0+cu121", "12.1",
              {lib_dir + "/libcudnn.so.8",
               "/usr/local/cuda-12.1/targets/x86_64-linux/lib/libcudart.so.12"});
    img.fs().lib(site_packages + "/torch/_C.cpython-310-x86_64-linux-gnu.so",
                 "_C.cpython-310-x86_64-linux-gnu.so",
                 {site_packages + "/torch/lib/libtorch_cuda.so"},
                 "-Wl,--enable-new-dtags,-rpath,'$ORIGIN/lib'");
    // torchvision's _C.so as the wheel ships it: libtorch_cuda.so in DT_NEEDED, no RPATH to
    // torch/lib.
    img.fs().lib(site_packages + "/torchvision/_C.so", "_C.so",
                 {site_packages + "/torch/lib/libtorch_cuda.so"});
}

bool error_for(const std::vector<cuvet::report::Finding>& findings, const std::string& name) {
    for (const auto& f : findings)
        if (f.id == "CUV001" && f.severity == cuvet::report::Severity::error &&
            f.message.find(name) != std::string::npos)
            return true;
    return false;
}

}  // namespace

TEST_CASE("CUV001: a module linking torch's libraries without RPATH loads after `import torch`",
          "[validate][cuv001]") {
    SECTION("`import torch` maps libtorch_cuda.so first: torchvision/_C.so finds it by SONAME") {
        CudaImage img;
        torch_with_module(img);
        REQUIRE(img.fs().error().empty());
        auto findings = validate_findings(img.write());
        INFO(describe_findings(findings));
        CHECK_FALSE(error_for(findings, "libtorch_cuda.so is needed by"));
    }
    SECTION("without torch's own module there is no `import torch`: the module's DT_NEEDED fails") {
        CudaImage img;
        torch_with_module(img);
        std::filesystem::remove(
            img.fs().host(site_packages + "/torch/_C.cpython-310-x86_64-linux-gnu.so"));
        REQUIRE(img.fs().error().empty());
        auto findings = validate_findings(img.write());
        INFO(describe_findings(findings));
        CHECK(error_for(findings, "libtorch_cuda.so is needed by"));
    }
}

TEST_CASE(
    "CUV001: torch's libcaffe2_nvrtc.so is opened at the first runtime-compiled kernel, not at "
    "import",
    "[validate][cuv001]") {
    CudaImage img;
    torch_with_module(img);
    img.fs().lib("/opt/stage/libnvrtc.so.12", "libnvrtc.so.12");
    img.fs().lib(site_packages + "/torch/lib/libcaffe2_nvrtc.so", "libcaffe2_nvrtc.so",
                 {"/opt/stage/libnvrtc.so.12"});
    img.fs().lib(site_packages + "/torch/lib/libtorch_other.so", "libtorch_other.so",
                 {"/opt/stage/libnvrtc.so.12"});
    std::filesystem::remove_all(img.fs().host("/opt/stage"));
    REQUIRE(img.fs().error().empty());
    auto findings = validate_findings(img.write());
    INFO(describe_findings(findings));
    // One error, for the library torch maps at import; libcaffe2_nvrtc.so's is a warning apart.
    REQUIRE(error_for(findings, "libnvrtc.so.12"));
    for (const auto& f : findings) {
        if (f.id != "CUV001" || f.message.find("libnvrtc.so.12") == std::string::npos) continue;
        bool caffe2 = f.message.find("libcaffe2_nvrtc.so") != std::string::npos;
        CHECK(f.severity ==
              (caffe2 ? cuvet::report::Severity::warning : cuvet::report::Severity::error));
    }
}

TEST_CASE("CUV001: a framework's missing cuDNN is quoted the way that release reports it",
          "[validate][cuv001]") {
    struct Case {
        std::string tensorflow, quote;
    };
    const Case cases[] = {
        {"2.11.0",
         "tensorflow 2.11.0 prints \"Could not load dynamic library 'libcudnn.so.8'; dlerror: "
         "libcudnn.so.8: cannot open shared object file: No such file or directory\""},
        {"2.15.0", "tensorflow 2.15.0 prints \"Cannot dlopen some GPU libraries."},
    };
    for (const auto& c : cases) {
        CudaImage img;
        img.glibc();
        img.cuda_toolkit("11.8.89");
        img.tensorflow(c.tensorflow, "11.8", "8", {"libcudnn.so.8", "libcudart.so.11.0"});
        REQUIRE(img.fs().error().empty());
        auto findings = validate_findings(img.write());
        INFO(c.tensorflow << "\n" << describe_findings(findings));
        bool quoted = false;
        for (const auto& f : findings)
            if (f.id == "CUV001" && f.message.find("libcudnn.so.8") != std::string::npos)
                quoted = f.message.find(c.quote) != std::string::npos;
        CHECK(quoted);
    }
}

TEST_CASE("CUV001: import torch without a library, in the words the real torch printed",
          "[validate][cuv001]") {
    // The oracle: torch 2.11 on the GPU machine with every cuDNN removed (run5, no_cudnn).
    const std::string real = recorded_framework_error("no_cudnn", "torch");
    REQUIRE(real == "libcudnn.so.9: cannot open shared object file: No such file or directory");
    const std::string torch = site_packages + "/torch";
    for (bool global_deps_miss_one : {false, true}) {
        CudaImage img;
        img.glibc();
        // Linked against, then removed: the image lacks them.
        const std::string gone = site_packages + "/.build";
        img.fs().lib(gone + "/libcudnn.so.9", "libcudnn.so.9");
        img.fs().lib(gone + "/libcudart.so.13", "libcudart.so.13");
        img.torch("2.11.0", "13.0", {gone + "/libcudnn.so.9"});
        img.fs().lib(torch + "/_C.cpython-310-x86_64-linux-gnu.so",
                     "_C.cpython-310-x86_64-linux-gnu.so", {torch + "/lib/libtorch_cuda.so"},
                     "-Wl,--enable-new-dtags,-rpath,'$ORIGIN/lib'");
        img.fs().lib(torch + "/lib/libtorch_global_deps.so", "libtorch_global_deps.so",
                     global_deps_miss_one ? std::vector<std::string>{gone + "/libcudart.so.13"}
                                          : std::vector<std::string>{});
        std::filesystem::remove_all(img.fs().host(gone));
        REQUIRE(img.fs().error().empty());
        auto findings = validate_findings(img.write());
        INFO(global_deps_miss_one << "\n" << describe_findings(findings));
        const cuvet::report::Finding* cudnn = nullptr;
        for (const auto& f : findings)
            if (f.id == "CUV001" && f.message.rfind("libcudnn.so.9 ", 0) == 0) cudnn = &f;
        REQUIRE(cudnn != nullptr);
        // With a global dependency missing too, torch's own preloading speaks first (a ValueError
        // naming sys.path): no quote then.
        if (global_deps_miss_one)
            CHECK(cudnn->message.find("import torch raises") == std::string::npos);
        else
            CHECK_THAT(cudnn->message,
                       Catch::Contains("import torch raises \"ImportError: " + real + "\""));
    }
}

TEST_CASE("CUV001: a file ld.so refuses does not satisfy DT_NEEDED", "[validate][cuv001]") {
    // What stands in for a gcc-built libcudnn.so.9: ld.so stops with an error on each.
    std::string real;
    {
        Rootfs fs;
        fs.lib("/l/libcudnn.so.9", "libcudnn.so.9");
        REQUIRE(fs.error().empty());
        std::ifstream in(fs.host("/l/libcudnn.so.9"), std::ios::binary);
        real.assign(std::istreambuf_iterator<char>(in), {});
    }
    REQUIRE(real.size() > 64);
    auto with_phentsize = [&](unsigned value) {
        auto bytes = real;
        bytes[54] = static_cast<char>(value & 0xff);  // e_phentsize of an Elf64_Ehdr
        bytes[55] = static_cast<char>(value >> 8);
        return bytes;
    };
    auto big_endian = real;
    big_endian[5] = 2;  // EI_DATA: ELFDATA2MSB
    const std::vector<std::pair<std::string, std::string>> stand_ins = {
        {"the real library", real},
        {"empty", ""},
        {"a git-lfs pointer",
         "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a2146\nsize 1234\n"},
        {"big-endian", big_endian},
        {"e_phentsize 1", with_phentsize(1)},
        {"e_phentsize 64", with_phentsize(64)},
    };
    for (const auto& [what, bytes] : stand_ins) {
        INFO("libcudnn.so.9 is " << what);
        CudaImage img;
        img.glibc();
        img.fs().lib(lib_dir + "/libcudnn.so.9", "libcudnn.so.9");
        img.fs().exe("/usr/bin/app", {lib_dir + "/libcudnn.so.9"});
        img.fs().write(lib_dir + "/libcudnn.so.9", bytes);
        img.entrypoint = {"/usr/bin/app"};
        REQUIRE(img.fs().error().empty());
        auto findings = validate_findings(img.write());
        INFO(describe_findings(findings));
        if (what == "the real library") {
            CHECK(ids_of(findings).count("CUV001") == 0);
            continue;
        }
        REQUIRE(ids_of(findings).count("CUV001") == 1);
        const auto& f = *std::find_if(findings.begin(), findings.end(),
                                      [](const auto& x) { return x.id == "CUV001"; });
        CHECK(f.severity == cuvet::report::Severity::error);
        // /lib is a link to usr/lib here, and ld.so's default path tries /lib's directory first.
        CHECK_THAT(f.message,
                   Catch::Contains("ld.so cannot load /lib/x86_64-linux-gnu/libcudnn.so.9") ||
                       Catch::Contains("ld.so cannot load " + lib_dir + "/libcudnn.so.9"));
    }
}

// Issue 36: a library missing for two things the image runs used to name only the first one met.
// The short text report shows the message and one root, so the message names every one.
TEST_CASE("CUV001: a library two consumers need names both, in the message",
          "[validate][cuv001][sublib-need]") {
    CudaImage img;
    img.glibc();
    img.fs().lib("/opt/stage/libcufft.so.12", "libcufft.so.12");
    for (const std::string package : {"alpha", "beta"})
        img.fs().lib(site_packages + "/" + package + "/_ext.cpython-310-x86_64-linux-gnu.so",
                     "_ext.so", {"/opt/stage/libcufft.so.12"});
    std::filesystem::remove_all(img.fs().host("/opt/stage"));
    REQUIRE(img.fs().error().empty());
    auto findings = validate_findings(img.write());
    INFO(describe_findings(findings));
    REQUIRE(ids_of(findings).count("CUV001") == 1);
    const auto& f = *std::find_if(findings.begin(), findings.end(),
                                  [](const auto& x) { return x.id == "CUV001"; });
    CHECK(f.severity == cuvet::report::Severity::error);
    CHECK_THAT(f.message, Catch::Contains("imported by alpha and imported by beta"));
}
