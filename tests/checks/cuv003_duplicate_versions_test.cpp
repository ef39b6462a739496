#include <catch2/catch.hpp>

#include "cuvet/config/config.hpp"
#include "cuvet/rules/database.hpp"
#include "cuvet/validate/validate.hpp"
#include "support/cuda_image.hpp"
#include "support/real_cudnn.hpp"
#include "support/skip.hpp"

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

// A cuDNN 8 preloaded (LD_PRELOAD in the Env, or /etc/ld.so.preload) into a process that links the
// build machine's real libcudnn.so.9: two majors of one library in one process.
TEST_CASE("CUV003: a preloaded cuDNN 8 ahead of the real libcudnn.so.9 a module links",
          "[validate][cuv003][real]") {
    for (bool in_env : {true, false}) {
        RealCudnn cudnn;
        cudnn.module("convnet");
        cudnn.rootfs.lib("/opt/old/libcudnn.so.8.9.7", "libcudnn.so.8");
        if (!cudnn.unavailable.empty()) CUVET_SKIP("skipped: " << cudnn.unavailable);
        REQUIRE(cudnn.rootfs.error().empty());
        cuvet::validate::Options options;
        if (in_env)
            options.env_overrides = {"LD_PRELOAD=/opt/old/libcudnn.so.8.9.7"};
        else
            cudnn.rootfs.write("/etc/ld.so.preload", "/opt/old/libcudnn.so.8.9.7\n");
        static const auto db = cuvet::rules::Database::load();
        const auto findings = cuvet::validate::validate(cudnn.rootfs.root().string(), options, db,
                                                        cuvet::config::Config{})
                                  .findings;
        INFO(describe_findings(findings));
        const cuvet::report::Finding* mixed = nullptr;
        for (const auto& f : findings)
            if (f.id == "CUV003" && f.severity == cuvet::report::Severity::error) mixed = &f;
        REQUIRE(mixed != nullptr);
        CHECK(mixed->message.find("/opt/old/libcudnn.so.8.9.7") != std::string::npos);
        CHECK(mixed->message.find(RealCudnn::dir + "/libcudnn.so.9") != std::string::npos);
        CHECK(mixed->message.find(in_env ? "LD_PRELOAD" : "/etc/ld.so.preload") !=
              std::string::npos);
        CHECK(mixed->loaded_by == "imported by convnet");
    }
}

TEST_CASE("CUV003: a preload of the same major is no mix", "[validate][cuv003][real]") {
    RealCudnn cudnn;
    cudnn.module("convnet");
    if (!cudnn.unavailable.empty()) CUVET_SKIP("skipped: " << cudnn.unavailable);
    cuvet::validate::Options options;
    options.env_overrides = {"LD_PRELOAD=" + RealCudnn::dir + "/libcudnn.so.9"};
    static const auto db = cuvet::rules::Database::load();
    const auto findings = cuvet::validate::validate(cudnn.rootfs.root().string(), options, db,
                                                    cuvet::config::Config{})
                              .findings;
    INFO(describe_findings(findings));
    for (const auto& f : findings)
        CHECK_FALSE((f.id == "CUV003" && f.severity == cuvet::report::Severity::error));
}

// No preload: a module links the real libcudnn.so.9 and a helper library that links cuDNN 8,
// so its process maps both majors through two consumers' DT_NEEDED.
TEST_CASE("CUV003: two consumers in one process pull in cuDNN 8 and the real cuDNN 9",
          "[validate][cuv003][real][sublibs]") {
    RealCudnn cudnn;
    if (!cudnn.unavailable.empty()) CUVET_SKIP("skipped: " << cudnn.unavailable);
    cudnn.rootfs.lib("/opt/old/libcudnn.so.8.9.7", "libcudnn.so.8");
    cudnn.rootfs.symlink("/opt/old/libcudnn.so.8", "libcudnn.so.8.9.7");
    cudnn.rootfs.lib("/opt/legacy/libdetect.so", "libdetect.so", {"/opt/old/libcudnn.so.8.9.7"},
                     "-Wl,-rpath,/opt/old");
    cudnn.rootfs.lib(RealCudnn::site + "/mixed/_C.cpython-310-x86_64-linux-gnu.so", "_C.so",
                     {RealCudnn::dir + "/libcudnn.so.9", "/opt/legacy/libdetect.so"},
                     "-Wl,-rpath," + RealCudnn::dir + ":/opt/legacy");
    REQUIRE(cudnn.rootfs.error().empty());
    static const auto db = cuvet::rules::Database::load();
    const auto findings =
        cuvet::validate::validate(cudnn.rootfs.root().string(), {}, db, cuvet::config::Config{})
            .findings;
    INFO(describe_findings(findings));
    const cuvet::report::Finding* mixed = nullptr;
    for (const auto& f : findings)
        if (f.id == "CUV003" && f.severity == cuvet::report::Severity::error) mixed = &f;
    REQUIRE(mixed != nullptr);
    CHECK_THAT(mixed->message, Catch::Contains("/opt/old/libcudnn.so.8.9.7") &&
                                   Catch::Contains(RealCudnn::dir + "/libcudnn.so.9"));
    CHECK(mixed->loaded_by == "imported by mixed");
}

// Issue 36: two majors of the CUDA runtime in a C++ program's process (LD_PRELOAD in the image's
// Env puts libcudart.so.12 ahead of the libcudart.so.13 it links), and a preloaded cuDNN 8 in a
// process two modules share: an error naming both majors and every root, in the message.
TEST_CASE("CUV003: another CUDA runtime major preloaded into a C++ program is an error",
          "[validate][cuv003][sublib-need]") {
    for (bool preload : {true, false}) {
        CudaImage img;
        img.glibc();
        img.fs().lib("/opt/cuda13/lib/libcudart.so.13.0.96", "libcudart.so.13");
        img.fs().symlink("/opt/cuda13/lib/libcudart.so.13", "libcudart.so.13.0.96");
        img.fs().lib("/opt/cuda12/lib/libcudart.so.12.4.127", "libcudart.so.12");
        img.fs().exe("/opt/app/bin/infer", {"/opt/cuda13/lib/libcudart.so.13.0.96"},
                     "-Wl,-rpath,/opt/cuda13/lib");
        img.entrypoint = {"/opt/app/bin/infer"};
        if (preload) img.env = {"LD_PRELOAD=/opt/cuda12/lib/libcudart.so.12.4.127"};
        REQUIRE(img.fs().error().empty());
        const auto findings = validate_findings(img.write());
        INFO(describe_findings(findings));
        const cuvet::report::Finding* mixed = nullptr;
        for (const auto& f : findings)
            if (f.id == "CUV003" && f.severity == cuvet::report::Severity::error) mixed = &f;
        if (!preload) {
            CHECK(mixed == nullptr);
            continue;
        }
        REQUIRE(mixed != nullptr);
        CHECK_THAT(mixed->message, Catch::Contains("libcudart.so.12.4.127") &&
                                       Catch::Contains("libcudart.so.13.0.96") &&
                                       Catch::Contains("LD_PRELOAD"));
        CHECK_THAT(mixed->loaded_by, Catch::Contains("/opt/app/bin/infer"));
    }
}

TEST_CASE("CUV003: a preloaded cuDNN 8 names every module whose process it enters",
          "[validate][cuv003][real][sublib-need]") {
    RealCudnn cudnn;
    cudnn.module("convnet");
    cudnn.module("seqnet");
    cudnn.rootfs.lib("/opt/old/libcudnn.so.8.9.7", "libcudnn.so.8");
    if (!cudnn.unavailable.empty()) CUVET_SKIP("skipped: " << cudnn.unavailable);
    REQUIRE(cudnn.rootfs.error().empty());
    cuvet::validate::Options options;
    options.env_overrides = {"LD_PRELOAD=/opt/old/libcudnn.so.8.9.7"};
    static const auto db = cuvet::rules::Database::load();
    const auto findings = cuvet::validate::validate(cudnn.rootfs.root().string(), options, db,
                                                    cuvet::config::Config{})
                              .findings;
    INFO(describe_findings(findings));
    const cuvet::report::Finding* mixed = nullptr;
    for (const auto& f : findings)
        if (f.id == "CUV003" && f.severity == cuvet::report::Severity::error) mixed = &f;
    REQUIRE(mixed != nullptr);
    CHECK_THAT(mixed->message,
               Catch::Contains("imported by convnet") && Catch::Contains("imported by seqnet"));
}
