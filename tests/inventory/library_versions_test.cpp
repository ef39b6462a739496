// Every CUDA library version, not only from sonames: the math libraries'
// own headers (the real ones from /usr/local/cuda when present), dist-info
// wherever it sits (a `pip --target` tree, a toolkit assembled from wheels
// with <prefix>/dist-info), and the GPU packages of the frameworks (JAX's
// cuda13 plugin: CUDA major from its name, its Requires-Dist pins).
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "cuvet/image/image.hpp"
#include "cuvet/inventory/analysis.hpp"
#include "support/framework_wheels.hpp"
#include "support/inventory_queries.hpp"
#include "support/rootfs_builder.hpp"
#include "support/skip.hpp"

namespace {

using namespace cuvet;
namespace fs = std::filesystem;
using test::analyze_dir;
using test::component;
using test::describe;

std::string evidence_version(const inventory::Component& c, const std::string& kind) {
    for (const auto& e : c.evidence)
        if (e.kind == kind) return e.version;
    return "";
}

}  // namespace

TEST_CASE("inventory: the math libraries' versions from the real CUDA headers",
          "[inventory][cuda]") {
    const fs::path include = "/usr/local/cuda/include";
    const char* headers[] = {"cublas_api.h", "cufft.h", "curand.h", "cusparse.h",
                             "cusolver_common.h"};
    std::error_code ec;
    for (const char* h : headers)
        if (!fs::exists(include / h, ec)) {
            CUVET_SKIP("skipped: no " << h << " under /usr/local/cuda/include");
        }
    test::Rootfs root;
    const std::string prefix = "/usr/local/cuda-13.0";
    for (const char* h : headers) {
        fs::create_directories(root.host(prefix + "/include"));
        fs::copy_file(fs::canonical(include / h), root.host(prefix + "/include/" + h), ec);
        REQUIRE_FALSE(ec);
    }
    root.lib(prefix + "/lib/libcublas.so.13", "libcublas.so.13");
    REQUIRE(root.error().empty());
    auto analysis = analyze_dir(root.root());
    const auto& inv = analysis.inventory;
    INFO(describe(inv));
    // The versions the headers state, read here the way a user would (grep the #defines).
    auto define = [&](const char* header, const std::string& name) {
        std::ifstream in(include / header);
        std::string line;
        while (std::getline(in, line)) {
            auto at = line.find("#define " + name + " ");
            if (at != std::string::npos)
                return std::to_string(std::stoi(line.substr(at + 9 + name.size())));
        }
        return std::string("?");
    };
    struct Expect {
        const char* component;
        const char* header;
        const char* prefix;
    };
    for (auto e :
         {Expect{"cublas", "cublas_api.h", "CUBLAS_VER_"}, Expect{"cufft", "cufft.h", "CUFFT_VER_"},
          Expect{"curand", "curand.h", "CURAND_VER_"},
          Expect{"cusparse", "cusparse.h", "CUSPARSE_VER_"},
          Expect{"cusolver", "cusolver_common.h", "CUSOLVER_VER_"}}) {
        std::string p = e.prefix;
        auto want = define(e.header, p + "MAJOR") + "." + define(e.header, p + "MINOR") + "." +
                    define(e.header, p + "PATCH") + "." + define(e.header, p + "BUILD");
        const auto* c = component(inv, e.component, prefix);
        INFO(e.component);
        REQUIRE(c != nullptr);
        CHECK(evidence_version(*c, "header") == want);
    }
    // The header and the library file are one copy.
    const auto* cublas = component(inv, "cublas", prefix);
    REQUIRE(cublas != nullptr);
    CHECK(cublas->files == std::vector<std::string>{prefix + "/lib/libcublas.so.13"});
    CHECK(cublas->versions_agree);
}

TEST_CASE("inventory: NPP from nppversion.h and its libraries", "[inventory]") {
    test::Rootfs root;
    root.write("/usr/local/cuda-12.4/include/nppversion.h",
               "#define NPP_VER_MAJOR 12\n#define NPP_VER_MINOR 2\n#define NPP_VER_PATCH "
               "5\n#define NPP_VER_BUILD 30\n"
               "#define NPP_VERSION_MAJOR NPP_VER_MAJOR\n");
    root.lib("/usr/local/cuda-12.4/targets/x86_64-linux/lib/libnppc.so.12.2.5.30", "libnppc.so.12");
    root.lib("/usr/local/cuda-12.4/targets/x86_64-linux/lib/libnppig.so.12.2.5.30",
             "libnppig.so.12");
    REQUIRE(root.error().empty());
    auto inv = analyze_dir(root.root()).inventory;
    INFO(describe(inv));
    const auto* npp = component(inv, "npp", "/usr/local/cuda-12.4");
    REQUIRE(npp != nullptr);
    CHECK(npp->version == "12.2.5.30");
    CHECK(npp->files.size() == 2);
    CHECK(npp->versions_agree);
}

TEST_CASE("inventory: dist-info wherever it sits", "[inventory]") {
    test::Rootfs root;
    SECTION("a pip --target tree") {
        const std::string target = "/opt/pydeps";
        root.lib(target + "/nvidia/cu13/lib/libcublas.so.13", "libcublas.so.13");
        root.lib(target + "/nvidia/cu13/lib/libnvJitLink.so.13", "libnvJitLink.so.13");
        test::dist_info(root, target, "nvidia-cublas", "13.1.0.3", "",
                        {"nvidia/cu13/lib/libcublas.so.13"});
        test::dist_info(root, target, "nvidia-nvjitlink", "13.0.88", "",
                        {"nvidia/cu13/lib/libnvJitLink.so.13"});
        REQUIRE(root.error().empty());
        auto inv = analyze_dir(root.root()).inventory;
        INFO(describe(inv));
        for (auto [name, version] :
             {std::pair{"cublas", "13.1.0.3"}, std::pair{"nvjitlink", "13.0.88"}}) {
            const auto* c = component(inv, name, target + "/nvidia/cu13");
            REQUIRE(c != nullptr);
            CHECK(c->version == version);
            CHECK(c->source == "pip");
            CHECK(c->files.size() == 1);
        }
    }
    SECTION("a toolkit assembled from wheels: <prefix>/dist-info, libraries in <prefix>/lib") {
        const std::string prefix = "/usr/local/cuda-13.0";
        root.lib(prefix + "/lib/libcufft.so.12", "libcufft.so.12");
        root.lib(prefix + "/lib/libnvrtc.so.13", "libnvrtc.so.13");
        test::dist_info(root, prefix + "/dist-info", "nvidia-cufft", "12.0.0.61", "",
                        {"nvidia/cu13/lib/libcufft.so.12"});
        test::dist_info(root, prefix + "/dist-info", "nvidia-cuda-nvrtc", "13.0.88", "",
                        {"nvidia/cu13/lib/libnvrtc.so.13"});
        REQUIRE(root.error().empty());
        auto inv = analyze_dir(root.root()).inventory;
        INFO(describe(inv));
        for (auto [name, version] :
             {std::pair{"cufft", "12.0.0.61"}, std::pair{"nvrtc", "13.0.88"}}) {
            const auto* c = component(inv, name, prefix);
            REQUIRE(c != nullptr);
            CHECK(c->version == version);
            CHECK(c->files ==
                  std::vector<std::string>{
                      prefix + "/lib/lib" +
                      std::string(name == std::string("cufft") ? "cufft.so.12" : "nvrtc.so.13")});
        }
    }
}

TEST_CASE("inventory: the real dist-info of /usr/local/cuda's wheels", "[inventory][cuda]") {
    const fs::path dist = "/usr/local/cuda/dist-info";
    std::error_code ec;
    if (!fs::is_directory(dist, ec)) {
        CUVET_SKIP("skipped: no /usr/local/cuda/dist-info");
    }
    test::Rootfs root;
    const std::string prefix = "/usr/local/cuda-13.0";
    int copied = 0;
    for (const auto& d : fs::directory_iterator(dist)) {
        auto name = d.path().filename().string();
        if (name.rfind("nvidia_cusolver-", 0) != 0 && name.rfind("nvidia_curand-", 0) != 0)
            continue;
        for (const char* file : {"METADATA", "RECORD"}) {
            fs::create_directories(root.host(prefix + "/dist-info/" + name));
            fs::copy_file(d.path() / file, root.host(prefix + "/dist-info/" + name + "/" + file),
                          ec);
        }
        ++copied;
    }
    if (copied != 2) {
        CUVET_SKIP("skipped: no cuSOLVER/cuRAND dist-info under /usr/local/cuda/dist-info");
    }
    root.lib(prefix + "/lib/libcusolver.so.12", "libcusolver.so.12");
    root.lib(prefix + "/lib/libcurand.so.10", "libcurand.so.10");
    REQUIRE(root.error().empty());
    auto inv = analyze_dir(root.root()).inventory;
    INFO(describe(inv));
    for (const char* name : {"cusolver", "curand"}) {
        const auto* c = component(inv, name, prefix);
        REQUIRE(c != nullptr);
        CHECK(c->source == "pip");
        CHECK(evidence_version(*c, "dist-info").size() >= 5);
        CHECK(c->files.size() == 1);
    }
}

TEST_CASE("inventory: JAX's cuda13 plugin, its CUDA major and pins", "[inventory][jax]") {
    test::CudaImage img;
    img.glibc();
    test::jax_cuda13(img);
    REQUIRE(img.fs().error().empty());
    auto inv = analyze_dir(img.fs().root()).inventory;
    INFO(describe(inv));
    const auto* plugin =
        component(inv, "jax-cuda-plugin", test::site_packages + "/jax_cuda13_plugin");
    REQUIRE(plugin != nullptr);
    CHECK(plugin->version == "0.11.2");
    CHECK(plugin->attributes.at("cuda") == "13");
    CHECK(plugin->attributes.at("package") == "jax-cuda13-plugin");
    CHECK(plugin->attributes.at("requires:nvidia-cudnn-cu13") == "<10.0,>=9.12.0.46");
    CHECK(plugin->attributes.at("requires:nvidia-cuda-nvcc") == ">=13.0.48");
    const auto* pjrt =
        component(inv, "jax-cuda-pjrt", test::site_packages + "/jax_plugins/xla_cuda13");
    REQUIRE(pjrt != nullptr);
    CHECK(pjrt->attributes.at("cuda") == "13");
    // The CUDA 13 wheels share nvidia/cu13; nvcc is a toolkit component there.
    const auto* nvcc = component(inv, "nvcc", test::site_packages + "/nvidia/cu13");
    REQUIRE(nvcc != nullptr);
    CHECK(nvcc->version == "13.0.88");
}
