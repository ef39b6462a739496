#include <algorithm>
#include <catch2/catch.hpp>

#include "support/cuda_image.hpp"
#include "support/framework_wheels.hpp"

using namespace cuvet::test;

TEST_CASE("CUV013: libcuda.so baked into /usr/lib, cuda-compat's copy is not reported",
          "[validate][cuv013]") {
    for (bool baked : {true, false}) {
        CudaImage img;
        img.glibc();
        img.cuda_toolkit("12.1.105");
        img.fs().lib("/usr/local/cuda-12.1/compat/libcuda.so.530.30.02", "libcuda.so.1");
        if (baked) {
            img.fs().lib("/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05", "libcuda.so.1");
            img.fs().symlink("/usr/lib/x86_64-linux-gnu/libcuda.so.1", "libcuda.so.535.104.05");
        }
        REQUIRE(img.fs().error().empty());
        auto findings = validate_findings(img.write());
        INFO(describe_findings(findings));
        CHECK(ids_of(findings).count("CUV013") == (baked ? 1u : 0u));
        for (const auto& f : findings)
            if (f.id == "CUV013") {
                CHECK(f.message.find("/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05") !=
                      std::string::npos);
                CHECK(f.message.find("535.104.05") != std::string::npos);
            }
    }
}

TEST_CASE(
    "CUV013: a baked libcuda is an error only where something the image runs reaches it first",
    "[validate][cuv013]") {
    for (bool ld_library_path : {true, false}) {
        CudaImage img;
        img.glibc();
        img.cuda_toolkit("12.1.105");
        // A copied host driver in /opt/driver; the app links libcuda.so.1.
        img.fs().lib("/opt/driver/libcuda.so.535.104.05", "libcuda.so.1");
        img.fs().symlink("/opt/driver/libcuda.so.1", "libcuda.so.535.104.05");
        img.fs().exe("/opt/app/bin/infer", {"/opt/driver/libcuda.so.1"});
        img.entrypoint = {"/opt/app/bin/infer"};
        if (ld_library_path) img.env.push_back("LD_LIBRARY_PATH=/opt/driver");
        REQUIRE(img.fs().error().empty());
        auto findings = validate_findings(img.write());
        INFO(describe_findings(findings));
        REQUIRE(ids_of(findings).count("CUV013") == 1);
        for (const auto& f : findings) {
            if (f.id != "CUV013") continue;
            CHECK(f.severity == (ld_library_path ? cuvet::report::Severity::error
                                                 : cuvet::report::Severity::info));
            CHECK(f.loaded_by == (ld_library_path ? "ENTRYPOINT /opt/app/bin/infer" : ""));
            CHECK(f.message.find("/opt/driver/libcuda.so.535.104.05") != std::string::npos);
        }
    }
}

TEST_CASE("CUV013: the toolkit's stub libcuda reached before the host's is an error",
          "[validate][cuv013]") {
    for (bool on_path : {true, false}) {
        CudaImage img;
        img.glibc();
        img.cuda_toolkit("12.1.105");
        // The build-time hack: a libcuda.so.1 link beside the stub, its dir on LD_LIBRARY_PATH.
        const std::string stubs = "/usr/local/cuda-12.1/targets/x86_64-linux/lib/stubs";
        img.fs().lib(stubs + "/libcuda.so", "libcuda.so.1");
        img.fs().symlink(stubs + "/libcuda.so.1", "libcuda.so");
        img.fs().exe("/opt/app/bin/infer", {stubs + "/libcuda.so"});
        img.entrypoint = {"/opt/app/bin/infer"};
        if (on_path) img.env.push_back("LD_LIBRARY_PATH=" + stubs);
        REQUIRE(img.fs().error().empty());
        auto findings = validate_findings(img.write());
        INFO(describe_findings(findings));
        std::size_t errors = 0;
        for (const auto& f : findings)
            if (f.severity == cuvet::report::Severity::error) ++errors;
        CHECK(errors == (on_path ? 1u : 0u));
        for (const auto& f : findings)
            if (f.id == "CUV013") {
                CHECK(f.message.find("CUDA_ERROR_STUB_LIBRARY") != std::string::npos);
                CHECK(f.loaded_by == "ENTRYPOINT /opt/app/bin/infer");
            }
    }
}

TEST_CASE("CUV013: a stub libcuda on the path names jax, whose CUDA plugin maps it",
          "[validate][cuv013]") {
    CudaImage img;
    img.glibc();
    jax_cuda13(img);
    img.fs().lib("/opt/stubs/libcuda.so", "libcuda.so.1");
    img.fs().symlink("/opt/stubs/libcuda.so.1", "libcuda.so");
    img.env.push_back("LD_LIBRARY_PATH=/opt/stubs");
    REQUIRE(img.fs().error().empty());
    auto findings = validate_findings(img.write());
    INFO(describe_findings(findings));
    bool named = false;
    for (const auto& f : findings) {
        if (f.id != "CUV013") continue;
        CHECK(f.severity == cuvet::report::Severity::error);
        named = named || f.loaded_by == "imported by jax" ||
                std::find(f.evidence.begin(), f.evidence.end(), "also loaded: imported by jax") !=
                    f.evidence.end();
    }
    CHECK(named);
}

TEST_CASE("CUV013: a baked libcuda in the mount dir breaks fleet drivers not newer than it",
          "[validate][cuv013]") {
    CudaImage img;
    img.glibc();
    img.cuda_toolkit("12.1.105");
    img.fs().lib("/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05", "libcuda.so.1");
    img.fs().symlink("/usr/lib/x86_64-linux-gnu/libcuda.so.1", "libcuda.so.535.104.05");
    REQUIRE(img.fs().error().empty());
    const auto path = img.write();
    using cuvet::report::Severity;
    auto severity_on = [&](const char* driver) {
        cuvet::stack::Targets targets;
        targets.drivers = {*cuvet::rules::Version::parse(driver)};
        auto findings = validate_findings(path, targets);
        INFO(describe_findings(findings));
        std::vector<cuvet::report::Finding> mine;
        for (const auto& f : findings)
            if (f.id == "CUV013") mine.push_back(f);
        REQUIRE(mine.size() == 1);
        return std::make_pair(mine[0].severity, mine[0].message);
    };
    // A newer host driver wins (ldconfig links the soname to the higher version): nothing breaks.
    CHECK(severity_on("580.65.06").first == Severity::info);
    // An older one loses to the baked copy; the same one collides with the mount.
    auto older = severity_on("525.60.13");
    CHECK(older.first == Severity::error);
    CHECK(older.second.find("Driver/library version mismatch") != std::string::npos);
    auto same = severity_on("535.104.05");
    CHECK(same.first == Severity::error);
    CHECK(same.second.find("file exists") != std::string::npos);
}
