// elf::inspect over real objects compiled at test time (tests/support/elf_fixtures).
#include <algorithm>
#include <catch2/catch.hpp>

#include "cuvet/elf/elf_info.hpp"
#include "support/elf_fixtures.hpp"
#include "support/skip.hpp"

using namespace cuvet;

namespace {

elf::ElfInfo inspect_file(const std::filesystem::path& path) {
    const std::string bytes = test::read_file(path);
    std::string why;
    auto info = elf::inspect(bytes, &why);
    INFO(path.string() << ": " << why);
    REQUIRE(info);
    return *info;
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

const elf::VersionNeed* need_for(const elf::ElfInfo& info, const std::string& file) {
    for (const auto& need : info.version_needs) {
        if (need.file == file) return &need;
    }
    return nullptr;
}

}  // namespace

TEST_CASE("inspect reads soname, version definitions and exports", "[elf]") {
    const auto& fx = test::elf_fixtures();
    REQUIRE(fx.error.empty());
    const auto info = inspect_file(fx.base);
    CHECK(info.is_64bit == (sizeof(void*) == 8));
    CHECK(info.type == 3);  // ET_DYN
    CHECK(info.soname == "libbase.so.1");
    CHECK(info.version_definitions ==
          std::vector<std::string>{"libbase.so.1", "BASE_1.0", "BASE_2.0"});
    CHECK(contains(info.exported_symbols, "base_fn"));
    CHECK(contains(info.exported_symbols, "base_fn2"));
    CHECK_FALSE(contains(info.exported_symbols, "base_hidden"));  // local: * in the map
    CHECK_FALSE(info.has_rpath);
    CHECK_FALSE(info.has_runpath);
    CHECK_FALSE(info.has_fatbin);
    CHECK(std::is_sorted(info.exported_symbols.begin(), info.exported_symbols.end()));
#if defined(__x86_64__)
    CHECK(info.machine == 62);
    CHECK(elf::machine_name(info.machine) == "x86-64");
#endif
}

TEST_CASE("inspect reads needed, DT_RPATH, version needs, imports and dlopen names", "[elf]") {
    const auto& fx = test::elf_fixtures();
    REQUIRE(fx.error.empty());
    const auto info = inspect_file(fx.user);
    CHECK(info.soname == "libuser.so.2");
    CHECK(contains(info.needed, "libbase.so.1"));
    CHECK(contains(info.needed, "libc.so.6"));
    CHECK(info.has_rpath);
    CHECK_FALSE(info.has_runpath);
    CHECK(info.rpath == std::vector<std::string>{"$ORIGIN/lib", "/opt/cuvet"});

    const auto* base = need_for(info, "libbase.so.1");
    REQUIRE(base);
    auto versions = base->versions;  // in the order ld wrote them; LIEF checks the order
    std::sort(versions.begin(), versions.end());
    CHECK(versions == std::vector<std::string>{"BASE_1.0", "BASE_2.0"});
    const auto* libc = need_for(info, "libc.so.6");
    REQUIRE(libc);
    REQUIRE_FALSE(libc->versions.empty());
    CHECK(libc->versions.front().rfind("GLIBC_", 0) == 0);

    CHECK(contains(info.imported_symbols, "base_fn"));
    CHECK(contains(info.imported_symbols, "base_fn2"));
    CHECK(contains(info.imported_symbols, "printf"));
    CHECK(contains(info.exported_symbols, "user_fn"));
    CHECK(contains(info.exported_symbols, "user_weak"));
    CHECK_FALSE(contains(info.exported_symbols, "printf"));
    CHECK(info.dlopen_candidates == std::vector<std::string>{"libcudnn.so.9", "libnvidia-ml.so.1"});
}

TEST_CASE("inspect tells DT_RUNPATH from DT_RPATH", "[elf]") {
    const auto& fx = test::elf_fixtures();
    REQUIRE(fx.error.empty());
    const auto info = inspect_file(fx.runpath);
    CHECK(info.has_runpath);
    CHECK_FALSE(info.has_rpath);
    CHECK(info.runpath == std::vector<std::string>{"/opt/run", "/opt/run2"});
    CHECK(info.rpath.empty());
}

TEST_CASE("inspect reads an executable", "[elf]") {
    const auto& fx = test::elf_fixtures();
    REQUIRE(fx.error.empty());
    const auto info = inspect_file(fx.exe);
    CHECK((info.type == 2 || info.type == 3));  // ET_EXEC, or ET_DYN for a PIE
    CHECK(info.soname.empty());
    CHECK(contains(info.needed, "libuser.so.2"));
    CHECK(contains(info.imported_symbols, "user_fn"));
}

TEST_CASE("inspect reads a 32-bit object", "[elf]") {
    const auto& fx = test::elf_fixtures();
    REQUIRE(fx.error.empty());
    if (fx.lib32.empty()) {
        CUVET_SKIP("skipped: gcc -m32 (multilib) is not available");
    }
    const auto info = inspect_file(fx.lib32);
    CHECK_FALSE(info.is_64bit);
    CHECK(info.machine == 3);  // EM_386
    CHECK(info.soname == "libm32.so");
    CHECK(info.needed == std::vector<std::string>{"libbase32.so.1"});
    CHECK(info.rpath == std::vector<std::string>{"/opt/m32"});
    CHECK(contains(info.exported_symbols, "m32_fn"));
    CHECK(contains(info.imported_symbols, "base_fn2"));
    REQUIRE(info.version_needs.size() == 1);
    CHECK(info.version_needs[0].file == "libbase32.so.1");
    CHECK(info.version_needs[0].versions == std::vector<std::string>{"BASE_2.0"});
    const auto base = inspect_file(fx.lib32_base);
    CHECK(base.version_definitions ==
          std::vector<std::string>{"libbase32.so.1", "BASE_1.0", "BASE_2.0"});
}

TEST_CASE("inspect lists the SASS and PTX architectures nvcc embedded", "[elf][cuda]") {
    const auto& fx = test::elf_fixtures();
    REQUIRE(fx.error.empty());
    if (fx.cuda.empty()) {
        CUVET_SKIP("skipped: nvcc is not available");
    }
    const auto info = inspect_file(fx.cuda);
    CHECK(info.has_fatbin);
    CHECK(info.sass_archs == std::vector<int>{80});
    CHECK(info.ptx_archs == std::vector<int>{90});
}

TEST_CASE("inspect finds the fatbins libcufft keeps in .ldata", "[elf][cuda]") {
    const std::filesystem::path cufft = "/usr/local/cuda/lib64/libcufft.so.12";
    if (!std::filesystem::exists(cufft)) {
        CUVET_SKIP("skipped: no " << cufft);
    }
    const auto info = inspect_file(cufft);
    REQUIRE(info.fatbin_sources.size() == 2);
    CHECK(info.fatbin_sources[0].section == ".nv_fatbin");
    CHECK(info.fatbin_sources[1].section == ".ldata");
    CHECK(info.fatbin_sources[1].containers > 1000);
    // .nv_fatbin alone holds sm_75 only; the kernels for newer GPUs live in .ldata.
    CHECK(info.fatbin_sources[0].sass_archs == std::vector<int>{75});
    CHECK(std::find(info.sass_archs.begin(), info.sass_archs.end(), 90) != info.sass_archs.end());
}
