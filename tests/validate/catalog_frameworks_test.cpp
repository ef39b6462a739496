// Frameworks validate and freeze know from the catalog alone (rules/frameworks.json
// "catalog", `install`): PaddlePaddle and MXNet wheels as pip installs them (dist-info
// METADATA and RECORD, the package's own version file) with a real library in the package
// that needs libcudart and libcudnn, built by gcc, judged by the same checks as any framework.
#include <catch2/catch.hpp>
#include <filesystem>

#include "support/cuda_image.hpp"
#include "support/process.hpp"

using namespace cuvet;
using namespace cuvet::test;
namespace fs = std::filesystem;

namespace {

const std::string lib_dir = "/usr/lib/x86_64-linux-gnu";

// paddlepaddle-gpu 2.6.1.post120 (CUDA 12.0, cuDNN 8.9.1 per its version file) with one
// library of the test's own in paddle/libs, where the wheel keeps its shared libraries,
// needing the CUDA runtime and cuDNN named in `needs`.
void paddle(CudaImage& img, const std::vector<std::string>& needs) {
    const std::string dist = site_packages + "/paddlepaddle_gpu-2.6.1.post120.dist-info";
    img.fs().write(dist + "/METADATA",
                   "Metadata-Version: 2.1\nName: paddlepaddle-gpu\nVersion: 2.6.1.post120\n\n");
    img.fs().write(dist + "/RECORD",
                   "paddle/__init__.py,,\npaddle/version/__init__.py,,\n"
                   "paddle/libs/libgpu_kernels.so,,\n");
    img.fs().write(site_packages + "/paddle/__init__.py", "");
    img.fs().write(site_packages + "/paddle/version/__init__.py",
                   "# THIS FILE IS GENERATED FROM PADDLEPADDLE SETUP.PY\n#\nfull_version    = "
                   "'2.6.1'\ncuda_version    = '12.0'\ncudnn_version   = '8.9.1'\n");
    img.fs().lib(site_packages + "/paddle/libs/libgpu_kernels.so", "libgpu_kernels.so", needs);
}

// A library linked against a CUDA 12 runtime that the image then does not hold.
std::string staged_cudart_12(CudaImage& img) {
    img.fs().lib("/opt/stage/libcudart.so.12", "libcudart.so.12");
    return "/opt/stage/libcudart.so.12";
}

const report::Finding* first(const std::vector<report::Finding>& findings, const std::string& id) {
    for (const auto& f : findings)
        if (f.id == id) return &f;
    return nullptr;
}

}  // namespace

TEST_CASE("validate: PaddlePaddle built for CUDA 12 in a CUDA 11.8 image",
          "[validate][catalog-frameworks]") {
    CudaImage img;
    img.glibc();
    img.cuda_toolkit("11.8.89");
    img.cudnn(lib_dir, "8.9.1");
    paddle(img, {staged_cudart_12(img), lib_dir + "/libcudnn.so.8"});
    fs::remove_all(img.fs().host("/opt/stage"));
    INFO(img.fs().error());
    REQUIRE(img.fs().error().empty());
    const auto findings = validate_findings(img.write());
    INFO(describe_findings(findings));

    // CUV007 judges the install the catalog names, with the variant its version's tail states,
    // written the way the wheel writes it (".post120", not "+post120").
    const auto* major = first(findings, "CUV007");
    REQUIRE(major != nullptr);
    CHECK(major->message.find("paddlepaddle 2.6.1.post120 (" + site_packages + "/paddle)") !=
          std::string::npos);
    CHECK(major->message.find("built for CUDA 12.0 but the image holds CUDA 11.8") !=
          std::string::npos);
    CHECK(major->loaded_by == "imported by paddle");
    // The build for the image's CUDA, from the builds rows of the same framework.
    CHECK(major->fix.find("the cu118 build of paddlepaddle 2.6.1") != std::string::npos);

    const auto* unresolved = first(findings, "CUV001");
    REQUIRE(unresolved != nullptr);
    CHECK(unresolved->message.find("libcudart.so.12") != std::string::npos);
    CHECK(unresolved->loaded_by == "imported by paddle");
}

TEST_CASE("validate and freeze: PaddlePaddle on the CUDA and cuDNN it was built for",
          "[validate][lock][catalog-frameworks]") {
    CudaImage img;
    img.glibc();
    img.cuda_toolkit("12.0.146");
    img.cudnn(lib_dir, "8.9.1");
    paddle(img, {"/usr/local/cuda-12.0/targets/x86_64-linux/lib/libcudart.so.12",
                 lib_dir + "/libcudnn.so.8"});
    INFO(img.fs().error());
    REQUIRE(img.fs().error().empty());
    const auto image = img.write();
    const auto findings = validate_findings(image);
    INFO(describe_findings(findings));
    CHECK(ids_of(findings).count("CUV007") == 0);
    CHECK(ids_of(findings).count("CUV001") == 0);

    const auto lock = run_cuvet({"freeze", image.string()});
    INFO(lock.out << lock.err);
    REQUIRE(lock.exit_code == 0);
    CHECK(lock.out.find("framework name=paddlepaddle version=2.6.1 variant=post120 cuda=12.0 "
                        "cudnn=8.9.1") != std::string::npos);
    CHECK(lock.out.find("root=" + site_packages + "/paddle") != std::string::npos);
}

TEST_CASE("validate and freeze: MXNet built for CUDA 11.2 in a CUDA 12 image",
          "[validate][lock][catalog-frameworks]") {
    CudaImage img;
    img.glibc();
    img.cuda_toolkit("12.1.105");
    // mxnet-cu112 1.9.1: the wheel's name states CUDA 11.2; libmxnet.so sits in the package dir.
    img.fs().lib("/opt/stage/libcudart.so.11.0", "libcudart.so.11.0");
    const std::string dist = site_packages + "/mxnet_cu112-1.9.1.dist-info";
    img.fs().write(dist + "/METADATA",
                   "Metadata-Version: 2.1\nName: mxnet-cu112\nVersion: 1.9.1\n\n");
    img.fs().write(dist + "/RECORD",
                   "mxnet/__init__.py,,\nmxnet/libmxnet.so,,\nmxnet/libinfo.py,,\n");
    img.fs().write(site_packages + "/mxnet/__init__.py", "");
    img.fs().write(site_packages + "/mxnet/libinfo.py",
                   "def find_lib_path():\n    pass\n__version__ = \"1.9.1\"\n");
    img.fs().lib(site_packages + "/mxnet/libmxnet.so", "libmxnet.so",
                 {"/opt/stage/libcudart.so.11.0"});
    fs::remove_all(img.fs().host("/opt/stage"));
    INFO(img.fs().error());
    REQUIRE(img.fs().error().empty());
    const auto image = img.write();
    const auto findings = validate_findings(image);
    INFO(describe_findings(findings));

    const auto* major = first(findings, "CUV007");
    REQUIRE(major != nullptr);
    CHECK(major->message.find("mxnet 1.9.1 (" + site_packages + "/mxnet)") != std::string::npos);
    CHECK(major->message.find("built for CUDA 11.2 but the image holds CUDA 12.1") !=
          std::string::npos);
    CHECK(major->loaded_by == "imported by mxnet");

    const auto lock = run_cuvet({"freeze", image.string()});
    INFO(lock.out << lock.err);
    REQUIRE(lock.exit_code == 0);
    CHECK(lock.out.find("framework name=mxnet version=1.9.1 cuda=11.2 root=" + site_packages +
                        "/mxnet") != std::string::npos);
}
