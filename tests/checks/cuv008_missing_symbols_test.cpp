#include <catch2/catch.hpp>
#include <fstream>
#include <memory>

#include "support/cuda_image.hpp"

using namespace cuvet::test;

namespace {

// libcudnn.so.8 with symbol version node `node`, and a consumer linked against
// a build that had node CUDNN_8.9 (so it carries a verneed for it).
std::filesystem::path image_with_node(const std::string& node) {
    static std::vector<std::unique_ptr<CudaImage>>
        keep;  // the archive lives in the image's temp dir
    keep.push_back(std::make_unique<CudaImage>());
    CudaImage& img = *keep.back();
    img.glibc();
    auto src = img.fs().host("/.src");
    std::filesystem::create_directories(src);
    std::ofstream(src / "lib.c") << "int cudnnCreate(void) { return 0; }\n";
    std::ofstream(src / "link.map") << "CUDNN_8.9 { global: cudnnCreate; local: *; };\n";
    std::ofstream(src / "image.map") << node << " { global: cudnnCreate; local: *; };\n";
    std::ofstream(src / "use.c")
        << "extern int cudnnCreate(void);\nint use(void) { return cudnnCreate(); }\n";
    img.fs().lib("/opt/stage/libcudnn.so.8", "libcudnn.so.8", {},
                 (src / "lib.c").string() + " -Wl,--version-script=" + (src / "link.map").string());
    img.fs().lib("/opt/app/libapp_cuda.so", "libapp_cuda.so", {"/opt/stage/libcudnn.so.8"},
                 (src / "use.c").string());
    img.fs().lib(
        "/usr/lib/x86_64-linux-gnu/libcudnn.so.8.0.5", "libcudnn.so.8", {},
        (src / "lib.c").string() + " -Wl,--version-script=" + (src / "image.map").string());
    img.fs().symlink("/usr/lib/x86_64-linux-gnu/libcudnn.so.8", "libcudnn.so.8.0.5");
    std::filesystem::remove_all(img.fs().host("/opt/stage"));
    std::filesystem::remove_all(src);
    REQUIRE(img.fs().error().empty());
    return img.write();
}

}  // namespace

TEST_CASE("CUV008: a consumer needs a symbol version the loaded library does not define",
          "[validate][cuv008]") {
    auto bad = validate_findings(image_with_node("CUDNN_8.0"));
    INFO(describe_findings(bad));
    REQUIRE(ids_of(bad).count("CUV008") == 1);
    for (const auto& f : bad)
        if (f.id == "CUV008")
            CHECK(f.message.find("CUDNN_8.9 of libcudnn.so.8") != std::string::npos);
    auto good = validate_findings(image_with_node("CUDNN_8.9"));
    INFO(describe_findings(good));
    CHECK(ids_of(good).count("CUV008") == 0);
}
