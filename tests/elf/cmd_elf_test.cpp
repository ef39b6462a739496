// `cuvet elf IMAGE PATH` end to end, on a rootfs-dir image holding our fixtures.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "support/elf_fixtures.hpp"
#include "support/process.hpp"
#include "support/skip.hpp"

using namespace cuvet;
namespace fs = std::filesystem;

namespace {

// /usr/lib/libuser.so -> libuser.so.2 -> /opt/real/libuser.so.2.0 (absolute
// link: it must resolve inside the image, not on the host).
struct Rootfs {
    test::TempDir dir;
    Rootfs() {
        const auto& fx = test::elf_fixtures();
        REQUIRE(fx.error.empty());
        fs::create_directories(dir / "usr/lib");
        fs::create_directories(dir / "opt/real");
        fs::copy_file(fx.user, dir / "opt/real/libuser.so.2.0");
        fs::create_symlink("/opt/real/libuser.so.2.0", dir / "usr/lib/libuser.so.2");
        fs::create_symlink("libuser.so.2", dir / "usr/lib/libuser.so");
        fs::copy_file(fx.runpath, dir / "usr/lib/librun.so");
        test::write_file(dir / "usr/lib/notes.txt", "not an ELF\n");
        if (!fx.cuda.empty()) fs::copy_file(fx.cuda, dir / "usr/lib/libkern.so");
    }
    std::string path() const { return dir.path().string(); }
};

}  // namespace

TEST_CASE("cuvet elf prints the facts of a file behind a chain of links", "[elf][cli]") {
    Rootfs root;
    auto result = test::run_cuvet({"elf", root.path(), "/usr/lib/libuser.so"});
    INFO(result.err);
    REQUIRE(result.exit_code == 0);
    CHECK(result.out.find("-> /opt/real/libuser.so.2.0") != std::string::npos);
    CHECK(result.out.find("libuser.so.2") != std::string::npos);
    CHECK(result.out.find("$ORIGIN/lib:/opt/cuvet") != std::string::npos);
    CHECK(result.out.find("libcudnn.so.9") != std::string::npos);
}

TEST_CASE("cuvet elf --format json carries every fact", "[elf][cli]") {
    Rootfs root;
    auto result = test::run_cuvet({"elf", root.path(), "usr/lib/librun.so", "--format", "json"});
    INFO(result.err);
    REQUIRE(result.exit_code == 0);
    const auto out = nlohmann::json::parse(result.out);
    CHECK(out["path"] == "/usr/lib/librun.so");
    CHECK(out["resolved_path"] == "/usr/lib/librun.so");
    const auto& elf = out["elf"];
    CHECK(elf["soname"] == "librun.so");
    CHECK(elf["rpath"].is_null());
    CHECK(elf["runpath"] == nlohmann::json({"/opt/run", "/opt/run2"}));
    CHECK(elf["exported_symbols"].size() >= 1);
    CHECK(elf["has_fatbin"] == false);
    CHECK_FALSE(out.contains("deep"));
}

TEST_CASE("cuvet elf --deep adds LIEF's sections and segments", "[elf][cli][lief]") {
    Rootfs root;
    auto result = test::run_cuvet(
        {"elf", root.path(), "/usr/lib/libuser.so.2", "--deep", "--format", "json"});
    INFO(result.err);
    REQUIRE(result.exit_code == 0);
    const auto out = nlohmann::json::parse(result.out);
    const auto& deep = out["deep"];
    bool has_dynsym = false;
    for (const auto& section : deep["sections"]) has_dynsym |= section["name"] == ".dynsym";
    CHECK(has_dynsym);
    CHECK(deep["segments"].size() > 0);
    CHECK(deep["lief_facts"]["soname"] == out["elf"]["soname"]);
    CHECK(deep["lief_facts"]["needed"] == out["elf"]["needed"]);

    auto text = test::run_cuvet({"elf", root.path(), "/usr/lib/libuser.so.2", "--deep"});
    CHECK(text.exit_code == 0);
    CHECK(text.out.find("segments:") != std::string::npos);
}

TEST_CASE("cuvet elf shows the GPU code of a CUDA library", "[elf][cli][cuda]") {
    if (test::elf_fixtures().cuda.empty()) {
        CUVET_SKIP("skipped: nvcc is not available");
    }
    Rootfs root;
    auto result = test::run_cuvet({"elf", root.path(), "/usr/lib/libkern.so", "--format", "json"});
    INFO(result.err);
    REQUIRE(result.exit_code == 0);
    const auto out = nlohmann::json::parse(result.out);
    CHECK(out["elf"]["sass"] == nlohmann::json({"sm_80"}));
    CHECK(out["elf"]["ptx"] == nlohmann::json({"compute_90"}));
}

TEST_CASE("cuvet elf fails with one line and exit 3 on bad input", "[elf][cli]") {
    Rootfs root;
    auto missing = test::run_cuvet({"elf", root.path(), "/usr/lib/libnothere.so"});
    CHECK(missing.exit_code == 3);
    CHECK(missing.err.find("no such file in the image") != std::string::npos);
    auto not_elf = test::run_cuvet({"elf", root.path(), "/usr/lib/notes.txt"});
    CHECK(not_elf.exit_code == 3);
    CHECK(not_elf.err.find("not a readable ELF") != std::string::npos);
    auto directory = test::run_cuvet({"elf", root.path(), "/usr/lib"});
    CHECK(directory.exit_code == 3);
    auto usage = test::run_cuvet({"elf", root.path()});
    CHECK(usage.exit_code == 2);
}
