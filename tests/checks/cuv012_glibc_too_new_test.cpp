#include <catch2/catch.hpp>
#include <fstream>

#include "support/cuda_image.hpp"

using namespace cuvet::test;

namespace {

// The build machine's glibc, and a libc.so.6 stand-in that defines only GLIBC_2.2.5 … GLIBC_2.17.
std::filesystem::path glibc_image(bool old_glibc) {
    static std::vector<std::unique_ptr<CudaImage>> keep;
    keep.push_back(std::make_unique<CudaImage>());
    CudaImage& img = *keep.back();
    img.glibc();
    // Needs the build machine's newest glibc symbol: memcpy@GLIBC_2.14 at least; __libc_start_main
    // is 2.34 on Debian 12.
    auto src = img.fs().host("/.src");
    std::filesystem::create_directories(src);
    std::ofstream(src / "use.c") << "#include <string.h>\n#include <sys/random.h>\nint use(char* "
                                    "b) { return (int)getrandom(b, 4, 0); }\n";
    img.fs().lib("/opt/app/libapp.so", "libapp.so", {}, (src / "use.c").string());
    if (old_glibc) {
        std::ofstream(src / "libc.map")
            << "GLIBC_2.2.5 { global: *; };\nGLIBC_2.17 { global: getrandom; } GLIBC_2.2.5;\n";
        std::ofstream(src / "libc.c") << "int getrandom(void) { return 0; }\n";
        std::filesystem::remove(img.fs().host("/usr/lib/x86_64-linux-gnu/libc.so.6"));
        img.fs().lib("/usr/lib/x86_64-linux-gnu/libc.so.6", "libc.so.6", {},
                     "-nostdlib " + (src / "libc.c").string() +
                         " -Wl,--version-script=" + (src / "libc.map").string());
    }
    std::filesystem::remove_all(src);
    REQUIRE(img.fs().error().empty());
    return img.write();
}

}  // namespace

TEST_CASE("CUV012: a library needing getrandom@GLIBC_2.25 on a glibc 2.17 image",
          "[validate][cuv012]") {
    auto bad = validate_findings(glibc_image(true));
    INFO(describe_findings(bad));
    CHECK(ids_of(bad).count("CUV012") >= 1);
    bool named = false;
    for (const auto& f : bad)
        named = named ||
                (f.id == "CUV012" && f.message.find("/opt/app/libapp.so") != std::string::npos);
    CHECK(named);
    auto good = validate_findings(glibc_image(false));
    INFO(describe_findings(good));
    CHECK(ids_of(good).count("CUV012") == 0);
}
