// ld.so.cache files written by the real ldconfig, in every format it writes,
// and bytes no ldconfig would write.
#include "cuvet/loader/ld_cache.hpp"

#include <catch2/catch.hpp>
#include <filesystem>

#include "support/process.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"

namespace {

using namespace cuvet;
namespace fs = std::filesystem;

// A root with two libraries in a conf dir and one in glibc-hwcaps/x86-64-v3.
struct CacheRoot {
    test::TempDir dir;
    std::string error;
    CacheRoot() {
        auto root = dir.path().string();
        auto src = dir / "f.c";
        test::write_file(src, "int f(void) { return 1; }\n");
        fs::create_directories(dir / "root/etc");
        fs::create_directories(dir / "root/opt/x/glibc-hwcaps/x86-64-v3");
        test::write_file(dir / "root/etc/ld.so.conf", "/opt/x\n");
        std::string cc = "gcc -shared -fPIC -o ";
        for (auto [out, soname] :
             {std::pair{"root/opt/x/libone.so.1.0", "libone.so.1"},
              {"root/opt/x/libtwo.so.2", "libtwo.so.2"},
              {"root/opt/x/glibc-hwcaps/x86-64-v3/libone.so.1.0", "libone.so.1"}}) {
            auto r =
                test::run_shell(cc + test::shell_quote((dir / out).string()) + " -Wl,-soname," +
                                soname + " " + test::shell_quote(src.string()));
            if (r.exit_code != 0) error = r.err;
        }
    }
    std::string build(const std::string& format) {
        auto root = (dir / "root").string();
        auto r = test::run_shell("ldconfig -c " + format + " -r " + test::shell_quote(root));
        if (r.exit_code != 0) return "";
        return test::read_file(dir / "root/etc/ld.so.cache");
    }
};

}  // namespace

TEST_CASE("ld.so.cache: formats written by the real ldconfig", "[loader][ld_cache]") {
    if (!test::have_program("ldconfig") || !test::have_program("gcc")) {
        CUVET_SKIP("skipped: ldconfig or gcc missing");
    }
    CacheRoot root;
    REQUIRE(root.error.empty());
    auto flags = loader::cache_flags_for(62, true);
    for (std::string format : {"new", "compat", "old"}) {
        auto bytes = root.build(format);
        if (bytes.empty()) {
            WARN("ldconfig cannot write the " << format << " format");
            continue;
        }
        INFO("format " << format);
        std::string why;
        auto cache = loader::parse_ld_cache(bytes, &why);
        REQUIRE(cache);
        CHECK(cache->format == (format == "compat" ? "old+new" : format));
        const auto* one = loader::cache_lookup(*cache, "libone.so.1", flags, {"x86-64-v3"});
        REQUIRE(one != nullptr);
        if (format == "old") {
            // No hwcap field: the first entry of the name, as ld.so takes it.
            CHECK(one->path.rfind("/opt/x/", 0) == 0);
            CHECK(one->hwcaps_subdir.empty());
        } else {
            // ldconfig makes no soname links in glibc-hwcaps dirs: the file itself.
            CHECK(one->path == "/opt/x/glibc-hwcaps/x86-64-v3/libone.so.1.0");
            CHECK(one->hwcaps_subdir == "x86-64-v3");
            const auto* plain = loader::cache_lookup(*cache, "libone.so.1", flags, {});
            REQUIRE(plain != nullptr);
            CHECK(plain->path == "/opt/x/libone.so.1");
        }
        const auto* two = loader::cache_lookup(*cache, "libtwo.so.2", flags, {"x86-64-v3"});
        REQUIRE(two != nullptr);
        CHECK(two->path == "/opt/x/libtwo.so.2");
        CHECK(loader::cache_lookup(*cache, "libtwo.so.2", loader::cache_flags_for(183, true), {}) ==
              nullptr);
        CHECK(loader::cache_lookup(*cache, "libthree.so", flags, {}) == nullptr);
    }
}

TEST_CASE("ld.so.cache: malformed bytes never crash", "[loader][ld_cache]") {
    std::string why;
    CHECK_FALSE(loader::parse_ld_cache("", &why));
    CHECK_FALSE(loader::parse_ld_cache("not a cache at all, really", &why));
    CHECK(why.find("magic") != std::string::npos);
    std::string header = "glibc-ld.so.cache1.1";
    std::string huge = header + std::string("\xff\xff\xff\x7f", 4) + std::string(40, '\0');
    CHECK_FALSE(loader::parse_ld_cache(huge, &why));
    // One entry whose strings point past the end.
    std::string bad = header + std::string("\x01\0\0\0", 4) + std::string(24, '\0');
    bad += std::string("\x03\x03\0\0", 4) + std::string("\xff\xff\0\0\xff\xff\0\0", 8) +
           std::string(12, '\0');
    CHECK_FALSE(loader::parse_ld_cache(bad, &why));
    // Every truncation of a real cache parses or fails cleanly.
    if (test::have_program("ldconfig") && test::have_program("gcc")) {
        CacheRoot root;
        auto bytes = root.build("compat");
        for (std::size_t n = 0; n < bytes.size(); n += 7)
            (void)loader::parse_ld_cache(std::string_view(bytes).substr(0, n), &why);
    }
}
