// Issue 24: the image judged as a GPU host starts it (nvidia-container-toolkit runs ldconfig
// over the image's ld.so.conf), LD_PRELOAD and /etc/ld.so.preload, per-ABI extension modules,
// a cuDNN whose version cannot be read, a framework that needs a library through its whole
// import closure, and copies nothing maps at import. Every fixture is gcc-built; the stale
// cache is written by the real ldconfig.
#include <algorithm>
#include <catch2/catch.hpp>

#include "cuvet/config/config.hpp"
#include "cuvet/rules/database.hpp"
#include "cuvet/validate/validate.hpp"
#include "support/cuda_image.hpp"
#include "support/process.hpp"
#include "support/skip.hpp"

using namespace cuvet::test;
using cuvet::report::Finding;
using cuvet::report::Severity;
namespace fs = std::filesystem;

namespace {

enum class Start { nvidia, none };

std::vector<Finding> findings_with(const fs::path& image, Start start,
                                   std::vector<std::string> env = {}) {
    static const auto db = cuvet::rules::Database::load();
    cuvet::validate::Options options;
    options.nvidia_start = start == Start::nvidia;
    options.env_overrides = std::move(env);
    return cuvet::validate::validate(image.string(), options, db, cuvet::config::Config{}).findings;
}

std::vector<const Finding*> with(const std::vector<Finding>& findings, const std::string& id,
                                 Severity severity, const std::string& text = "") {
    std::vector<const Finding*> out;
    for (const auto& f : findings)
        if (f.id == id && f.severity == severity && f.message.find(text) != std::string::npos)
            out.push_back(&f);
    return out;
}

bool names_root(const Finding& f, const std::string& label) {
    if (f.loaded_by == label) return true;
    return std::find(f.evidence.begin(), f.evidence.end(), "also loaded: " + label) !=
           f.evidence.end();
}

// torch 2.11 whose wheel pins cuDNN 9.19.0.56; libtorch_cuda.so needs `needs`.
void torch_pinned(CudaImage& img, const std::vector<std::string>& needs) {
    img.torch("2.11.0", "13.0", needs);
    img.fs().write(site_packages + "/torch-2.11.0.dist-info/METADATA",
                   "Metadata-Version: 2.1\nName: torch\nVersion: 2.11.0\n"
                   "Requires-Dist: nvidia-cudnn-cu13==9.19.0.56; platform_system == \"Linux\"\n\n");
}

}  // namespace

TEST_CASE("issue 24: a stale ld.so.cache with a correct ld.so.conf.d loads at an NVIDIA start",
          "[validate][issue24]") {
    if (!have_program("ldconfig")) {
        CUVET_SKIP("needs ldconfig");
    }
    CudaImage img;
    img.glibc();
    img.cudnn("/opt/cudnn/lib", "9.19.0");
    torch_pinned(img, {"/opt/cudnn/lib/libcudnn.so.9"});
    img.fs().write("/etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n");
    img.fs().write("/etc/ld.so.conf.d/x86_64-linux-gnu.conf", "/usr/lib/x86_64-linux-gnu\n");
    // The cache is written before /opt/cudnn/lib is listed: stale for it, as after a
    // `COPY cudnn.conf /etc/ld.so.conf.d/` with no `RUN ldconfig` after.
    auto ldconfig = run_shell("ldconfig -r " + shell_quote(img.fs().root().string()));
    REQUIRE(ldconfig.exit_code == 0);
    REQUIRE(fs::exists(img.fs().host("/etc/ld.so.cache")));
    img.fs().write("/etc/ld.so.conf.d/cudnn.conf", "/opt/cudnn/lib\n");
    REQUIRE(img.fs().error().empty());
    const auto image = img.write();

    SECTION(
        "default: ldconfig at start lists /opt/cudnn/lib, and the report says the image relies on "
        "it") {
        auto findings = findings_with(image, Start::nvidia);
        INFO(describe_findings(findings));
        CHECK(with(findings, "CUV001", Severity::error).empty());
        CHECK(ids_of(findings).count("CUV004") == 0);
        auto started = with(findings, "CUV001", Severity::info,
                            "load only because the NVIDIA container runtime runs ldconfig");
        REQUIRE(started.size() == 1);
        CHECK_THAT(started[0]->message,
                   Catch::Contains("/etc/ld.so.cache is stale for /opt/cudnn/lib"));
        CHECK_THAT(started[0]->message, Catch::Contains("libcudnn.so.9"));
        CHECK(names_root(*started[0], "imported by torch"));
    }
    SECTION("--runtime-start none: the image's cache as it is, today's verdict") {
        auto findings = findings_with(image, Start::none);
        INFO(describe_findings(findings));
        auto errors = with(findings, "CUV001", Severity::error, "libcudnn.so.9");
        REQUIRE(errors.size() == 1);
        CHECK(names_root(*errors[0], "imported by torch"));
        CHECK(with(findings, "CUV001", Severity::info, "NVIDIA container runtime").empty());
    }
    SECTION(
        "the command line: validate's exit code follows --runtime-start; a bad value is usage") {
        const auto started = run_cuvet({"validate", "--no-cache", image.string()});
        INFO(started.out << started.err);
        CHECK(started.exit_code == 0);
        const auto plain =
            run_cuvet({"validate", "--no-cache", "--runtime-start", "none", image.string()});
        INFO(plain.out << plain.err);
        CHECK(plain.exit_code == 1);
        CHECK_THAT(plain.out, Catch::Contains("libcudnn.so.9"));
        for (const char* command : {"validate", "probe"}) {
            const auto bad = run_cuvet({command, "--runtime-start", "docker", image.string()});
            CHECK(bad.exit_code == 2);
            CHECK_THAT(bad.err, Catch::Contains("--runtime-start"));
        }
    }
}

TEST_CASE("issue 24: LD_PRELOAD of an older cuDNN is what torch loads", "[validate][issue24]") {
    CudaImage img;
    img.glibc();
    img.cudnn_wheel("9.19.0.56", 13);
    img.cudnn("/usr/lib/x86_64-linux-gnu", "9.14.0", "9.14.0.64-1+cuda13.0");
    torch_pinned(img, {site_packages + "/nvidia/cudnn/lib/libcudnn.so.9"});
    const std::string preload = "/usr/lib/x86_64-linux-gnu/libcudnn.so.9";

    SECTION("no preload: the wheel's 9.19 loads") {
        REQUIRE(img.fs().error().empty());
        auto findings = findings_with(img.write(), Start::nvidia);
        INFO(describe_findings(findings));
        CHECK(ids_of(findings).count("CUV004") == 0);
    }
    SECTION("LD_PRELOAD in the image Env") {
        img.env = {"LD_PRELOAD=" + preload};
        REQUIRE(img.fs().error().empty());
        auto findings = findings_with(img.write(), Start::nvidia);
        INFO(describe_findings(findings));
        auto refused = with(findings, "CUV004", Severity::error, "libcudnn.so.9.14.0");
        REQUIRE(refused.size() == 1);
        CHECK(refused[0]->loaded_by == "imported by torch");
        CHECK(std::any_of(
            refused[0]->evidence.begin(), refused[0]->evidence.end(),
            [](const std::string& e) { return e.find("LD_PRELOAD") != std::string::npos; }));
    }
    SECTION("LD_PRELOAD from --env, separated by ':' and ' ' as ld.so splits it") {
        REQUIRE(img.fs().error().empty());
        auto findings = findings_with(img.write(), Start::nvidia,
                                      {"LD_PRELOAD=/nonexistent/libfoo.so " + preload});
        INFO(describe_findings(findings));
        CHECK(ids_of(findings).count("CUV004") == 1);
        // A preload ld.so cannot open is ignored with a warning, never a missing DT_NEEDED.
        CHECK(with(findings, "CUV001", Severity::error, "libfoo").empty());
    }
    SECTION("/etc/ld.so.preload") {
        img.fs().write("/etc/ld.so.preload", preload + "\n");
        REQUIRE(img.fs().error().empty());
        auto findings = findings_with(img.write(), Start::nvidia);
        INFO(describe_findings(findings));
        auto refused = with(findings, "CUV004", Severity::error, "libcudnn.so.9.14.0");
        REQUIRE(refused.size() == 1);
        CHECK(refused[0]->loaded_by == "imported by torch");
    }
}

TEST_CASE("issue 24: a cuDNN whose version cannot be read gets no version verdict",
          "[validate][issue24]") {
    CudaImage img;
    img.glibc();
    // The wheel's files moved to /opt/cudnn/lib: libcudnn.so.9 says only its major.
    img.fs().lib("/opt/cudnn/lib/libcudnn.so.9", "libcudnn.so.9");
    torch_pinned(img, {"/opt/cudnn/lib/libcudnn.so.9"});
    img.env = {"LD_LIBRARY_PATH=/opt/cudnn/lib"};
    SECTION("no version anywhere: unknown, not older") {
        REQUIRE(img.fs().error().empty());
        auto findings = findings_with(img.write(), Start::nvidia);
        INFO(describe_findings(findings));
        CHECK(ids_of(findings).count("CUV004") == 0);
        CHECK(with(findings, "CUV001", Severity::error).empty());
    }
    SECTION("cudnn_version.h beside it says 9.14: older, refused") {
        img.fs().write(
            "/opt/cudnn/include/cudnn_version.h",
            "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 14\n#define CUDNN_PATCHLEVEL 0\n");
        REQUIRE(img.fs().error().empty());
        auto findings = findings_with(img.write(), Start::nvidia);
        INFO(describe_findings(findings));
        CHECK(with(findings, "CUV004", Severity::error, "9.14.0").size() == 1);
    }
    SECTION("cudnn_version.h beside it says 9.19: accepted") {
        img.fs().write(
            "/opt/cudnn/include/cudnn_version.h",
            "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 19\n#define CUDNN_PATCHLEVEL 0\n");
        REQUIRE(img.fs().error().empty());
        auto findings = findings_with(img.write(), Start::nvidia);
        INFO(describe_findings(findings));
        CHECK(ids_of(findings).count("CUV004") == 0);
    }
}

TEST_CASE("issue 24: a cuDNN whose version is only in its binary is judged by it",
          "[validate][issue24]") {
    CudaImage img;
    img.glibc();
    // No header, no package metadata: libcudnn.so.9 says "9", libcudnn_graph.so.9 holds
    // the release constant real cuDNN 9 keeps in .rodata.
    img.fs().lib("/opt/cudnn/lib/libcudnn.so.9", "libcudnn.so.9");
    torch_pinned(img, {"/opt/cudnn/lib/libcudnn.so.9"});
    img.env = {"LD_LIBRARY_PATH=/opt/cudnn/lib"};
    auto graph_with = [&](const std::string& constant) {
        img.fs().lib_source(
            "/opt/cudnn/lib/libcudnn_graph.so.9", "libcudnn_graph.so.9",
            "const char cudnn_release_constant[] = \"" + constant +
                "\";\nconst char* cudnn_release(void) { return cudnn_release_constant; }\n");
        REQUIRE(img.fs().error().empty());
    };
    SECTION("9.14.0 in the binary: older than the 9.19 build, refused") {
        graph_with("cudnn_version_9_14_0_64_");
        auto findings = findings_with(img.write(), Start::nvidia);
        INFO(describe_findings(findings));
        CHECK(with(findings, "CUV004", Severity::error, "9.14.0").size() == 1);
    }
    SECTION("9.19.0 in the binary: accepted") {
        graph_with("cudnn_version_9_19_0_56_");
        auto findings = findings_with(img.write(), Start::nvidia);
        INFO(describe_findings(findings));
        CHECK(ids_of(findings).count("CUV004") == 0);
    }
}

TEST_CASE("issue 24: per-ABI extension modules, one of which loads", "[validate][issue24]") {
    CudaImage img;
    img.glibc();
    auto& fs = img.fs();
    const std::string pkg = site_packages + "/mpi4py";
    const std::string build = "/opt/.build";
    fs.lib(build + "/libmpi.so.12", "libmpi.so.12");
    fs.lib("/usr/lib/x86_64-linux-gnu/libmpi.so.40", "libmpi.so.40");
    const std::string init = "int PyInit_MPI(void) { return 0; }\n";
    for (std::string abi : {"mpich", "openmpi"}) {
        const auto name = "MPI." + abi + ".cpython-310-x86_64-linux-gnu.so";
        fs.lib_source(
            pkg + "/" + name, name, init,
            {abi == "mpich" ? build + "/libmpi.so.12" : "/usr/lib/x86_64-linux-gnu/libmpi.so.40"});
    }
    fs.write(pkg + "/__init__.py", "");
    fs::remove_all(fs.host(build));  // MPICH is not installed
    SECTION("Open MPI present: mpi4py imports MPI.openmpi, MPI.mpich is no failure") {
        REQUIRE(fs.error().empty());
        auto findings = findings_with(img.write(), Start::nvidia);
        INFO(describe_findings(findings));
        CHECK(with(findings, "CUV001", Severity::error).empty());
        CHECK(with(findings, "CUV001", Severity::warning).empty());
    }
    SECTION("no MPI at all: none of them loads, each is an error") {
        fs::remove(fs.host("/usr/lib/x86_64-linux-gnu/libmpi.so.40"));
        REQUIRE(fs.error().empty());
        auto findings = findings_with(img.write(), Start::nvidia);
        INFO(describe_findings(findings));
        CHECK(with(findings, "CUV001", Severity::error, "libmpi.so.12").size() == 1);
        CHECK(with(findings, "CUV001", Severity::error, "libmpi.so.40").size() == 1);
    }
}

TEST_CASE("issue 24: a library torch needs through its import closure names torch",
          "[validate][issue24]") {
    CudaImage img;
    img.glibc();
    auto& fs = img.fs();
    // A dir torch's RUNPATH names (CudaImage::torch: nvidia/cudnn/lib, nvidia/cuda_runtime/lib).
    const std::string cu13 = site_packages + "/nvidia/cuda_runtime/lib";
    fs.lib("/opt/.build/libcufft.so.12", "libcufft.so.12");
    fs.lib(cu13 + "/libcusolver.so.12", "libcusolver.so.12", {"/opt/.build/libcufft.so.12"},
           "-Wl,--enable-new-dtags,-rpath,'$ORIGIN'");
    // The ENTRYPOINT maps libcusolver first, so that file's root is the ENTRYPOINT; torch's
    // libtorch_cuda.so needs it too.
    fs.exe("/opt/app/solve", {cu13 + "/libcusolver.so.12"},
           "-Wl,--enable-new-dtags,-rpath," + cu13);
    img.entrypoint = {"/opt/app/solve"};
    img.torch("2.11.0", "13.0", {cu13 + "/libcusolver.so.12"});
    fs::remove_all(fs.host("/opt/.build"));  // pip uninstall nvidia-cufft
    REQUIRE(fs.error().empty());
    auto findings = findings_with(img.write(), Start::nvidia);
    INFO(describe_findings(findings));
    auto missing = with(findings, "CUV001", Severity::error, "libcufft.so.12");
    REQUIRE(missing.size() == 1);
    CHECK(names_root(*missing[0], "imported by torch"));
    CHECK(names_root(*missing[0], "ENTRYPOINT /opt/app/solve"));
}

TEST_CASE("issue 24: a bundled copy nothing maps at import is no duplicate warning",
          "[validate][issue24]") {
    CudaImage img;
    img.glibc();
    auto& fs = img.fs();
    const std::string cu13 = site_packages + "/nvidia/cuda_runtime/lib";  // on torch's RUNPATH
    fs.lib(cu13 + "/libcupti.so.2025.3.1", "libcupti.so.13");
    fs.symlink(cu13 + "/libcupti.so.13", "libcupti.so.2025.3.1");
    img.torch("2.11.0", "13.0", {cu13 + "/libcupti.so.13"});
    // Triton's wheel: three regular copies of CUDA 12.8's cupti, opened only by its profiler.
    const std::string cupti = site_packages + "/triton/backends/nvidia/lib/cupti";
    for (const auto* name : {"libcupti.so", "libcupti.so.12", "libcupti.so.2025.1.1"})
        fs.lib(cupti + "/" + name, "libcupti.so.12");
    fs.write(site_packages + "/triton/__init__.py", "");
    SECTION("only the wheel's cupti is mapped: info") {
        REQUIRE(fs.error().empty());
        auto findings = findings_with(img.write(), Start::nvidia);
        INFO(describe_findings(findings));
        CHECK(with(findings, "CUV003", Severity::warning).empty());
        CHECK(with(findings, "CUV003", Severity::info, "cupti").size() == 1);
    }
    SECTION("something the image runs maps Triton's copy too: a warning") {
        fs.exe("/opt/app/profile", {cupti + "/libcupti.so.2025.1.1"},
               "-Wl,--enable-new-dtags,-rpath," + cupti);
        img.entrypoint = {"/opt/app/profile"};
        REQUIRE(fs.error().empty());
        auto findings = findings_with(img.write(), Start::nvidia);
        INFO(describe_findings(findings));
        CHECK(with(findings, "CUV003", Severity::warning, "cupti").size() == 1);
    }
}
