// `cuvet validate` on images that were not made for one check: the bundled
// sample of the README quick start, and the real CUDA install of this host.
#include <catch2/catch.hpp>
#include <filesystem>

#include "scenarios/scenario_support.hpp"
#include "support/rootfs_builder.hpp"
#include "support/skip.hpp"

using namespace cuvet::test;
namespace fs = std::filesystem;

TEST_CASE("sample image: torch loads the system cuDNN 8.6 (CUDA 11.8) through LD_LIBRARY_PATH",
          "[scenario][validate][sample]") {
    fs::path sample = fs::path(CUVET_BUILD_DIR) / "testdata" / "sample-image.tar";
    if (!fs::exists(sample)) {
        CUVET_SKIP("skipped: " << sample << " not built (target sample_image)");
    }
    auto r = validate_cli(sample.string());
    INFO(dump(r));
    REQUIRE(r.json.is_object());
    // testdata/README.md, "What is wrong with it, on purpose".
    CHECK(r.ids == std::multiset<std::string>{"CUV002", "CUV003", "CUV004", "CUV006"});
    CHECK(r.exit_code == 1);
    for (const auto& f : r.json["findings"]) {
        std::string message = f["message"];
        if (f["id"] == "CUV004") {
            CHECK(message.find("built with cuDNN 8.9.2.26") != std::string::npos);
            CHECK(message.find("libcudnn.so.8.6.0") != std::string::npos);
        }
        if (f["id"] == "CUV002") {
            CHECK(message.find("/usr/lib/x86_64-linux-gnu/libcudnn.so.8.6.0") != std::string::npos);
            CHECK(message.find("nvidia/cudnn/lib/libcudnn.so.8") != std::string::npos);
        }
        if (f["id"] == "CUV006") CHECK(message.find("CUDA 11") != std::string::npos);
    }
}

TEST_CASE("real CUDA install: validate an image of this host's /usr/local/cuda",
          "[scenario][validate][cuda][slow]") {
    fs::path cuda = "/usr/local/cuda";
    if (!fs::exists(cuda / "lib64")) {
        CUVET_SKIP("skipped: no /usr/local/cuda");
    }
    auto real = fs::canonical(cuda);
    Rootfs root;
    REQUIRE(root.add_host_glibc());
    // Hard links: the 2 GB of libraries are not copied when /tmp is on the same file system.
    auto target = root.host(real.string());
    fs::create_directories(target.parent_path());
    auto copied = run_shell("cp -al " + shell_quote(real.string()) + " " +
                            shell_quote(target.string()) + " 2>/dev/null || cp -a " +
                            shell_quote(real.string()) + " " + shell_quote(target.string()));
    REQUIRE(copied.exit_code == 0);
    root.symlink("/usr/local/cuda", real.filename().string());
    // What a distribution base image brings: the C++ runtime and the libraries the toolkit's ELF
    // files need.
    for (const char* lib : {"libstdc++.so.6", "libm.so.6", "libdl.so.2", "libgcc_s.so.1",
                            "libpthread.so.0", "librt.so.1", "libutil.so.1", "libz.so.1"}) {
        fs::path host = fs::path("/lib/x86_64-linux-gnu") / lib;
        if (fs::exists(host))
            fs::copy_file(fs::canonical(host),
                          root.host(std::string("/usr/lib/x86_64-linux-gnu/") + lib));
    }
    root.write("/etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n");
    root.write("/etc/ld.so.conf.d/000_cuda.conf", "/usr/local/cuda/lib64\n");
    REQUIRE(root.error().empty());
    auto r = validate_cli(root.root().string(), {"--fail-on", "never"});
    INFO(dump(r));
    REQUIRE(r.json.is_object());
    CHECK(r.exit_code == 0);
    // One consistent toolkit: no copy conflicts, no mixed cuDNN, no loader failures of DT_NEEDED.
    for (const char* id : {"CUV002", "CUV003", "CUV005", "CUV006", "CUV011", "CUV012"})
        CHECK(r.ids.count(id) == 0);
    for (const auto& f : r.json["findings"]) {
        CHECK(f["severity"] != "error");  // nothing runs in it: whatever a file misses is info
        UNSCOPED_INFO(f["id"].get<std::string>() << ": " << f["message"].get<std::string>());
    }
    WARN("real CUDA install findings: " << r.ids.size());
}

TEST_CASE("sample image with --dockerfile: findings point at the RUN line that installed the file",
          "[scenario][validate][sample]") {
    fs::path sample = fs::path(CUVET_BUILD_DIR) / "testdata" / "sample-image.tar";
    if (!fs::exists(sample)) {
        CUVET_SKIP("skipped: " << sample << " not built");
    }
    std::string dockerfile =
        std::string(CUVET_SOURCE_DIR) + "/tests/scenarios/data/sample.Dockerfile";
    auto r = validate_cli(sample.string(), {"--dockerfile", dockerfile});
    INFO(dump(r));
    REQUIRE(r.json.is_object());
    bool pointed = false;
    for (const auto& f : r.json["findings"]) {
        if (f["id"] != "CUV006") continue;
        for (const auto& l : f["locations"])
            pointed = pointed || (l["file"] == dockerfile && l.value("line", 0) == 12);
    }
    CHECK(pointed);
}
