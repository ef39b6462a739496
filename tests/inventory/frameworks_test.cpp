// Framework version files as the wheels ship them: TensorFlow's
// build_info.py, ONNX Runtime's build_and_package_info.py and CUDA provider,
// PaddlePaddle, CuPy, JAX and its CUDA plugin, TensorRT, NCCL headers.
#include <catch2/catch.hpp>

#include "cuvet/image/image.hpp"
#include "cuvet/inventory/analysis.hpp"
#include "support/inventory_queries.hpp"
#include "support/rootfs_builder.hpp"

namespace {

using namespace cuvet;
using test::only;

}  // namespace

TEST_CASE("inventory: framework version files", "[inventory]") {
    test::Rootfs root;
    const std::string site = "/usr/lib/python3/dist-packages";
    root.write(
        site + "/tensorflow/python/platform/build_info.py",
        "import collections\nbuild_info = collections.OrderedDict()\n"
        "build_info['cpu_compiler'] = '/usr/bin/clang-17'\n"
        "build_info = {'cuda_version': '12.3', 'cudnn_version': '8', 'is_cuda_build': True}\n");
    root.write(site + "/tensorflow-2.16.1.dist-info/METADATA",
               "Name: tensorflow\nVersion: 2.16.1\n");
    root.write(site + "/onnxruntime/capi/build_and_package_info.py",
               "package_name = 'onnxruntime-gpu'\n__version__ = '1.18.0'\ncuda_version = '12.4'\n"
               "cudnn_version = '9.1'\n");
    root.write(site + "/onnxruntime/capi/libonnxruntime_providers_cuda.so", "not really an ELF");
    root.write(site + "/onnxruntime_gpu-1.18.0.dist-info/METADATA",
               "Name: onnxruntime-gpu\nVersion: 1.18.0\n");
    root.write(site + "/paddle/version/__init__.py",
               "full_version    = '2.6.1'\nmajor = '2'\ncuda_version    = '12.0'\ncudnn_version   "
               "= '8.9.1'\n");
    root.write(site + "/cupy/_version.py", "__version__ = '13.2.0'\n");
    root.write(site + "/cupy_cuda12x-13.2.0.dist-info/METADATA",
               "Name: cupy-cuda12x\nVersion: 13.2.0\n");
    root.write(site + "/jaxlib/version.py", "_version: str = \"0.4.30\"\n");
    root.write(site + "/jax_cuda12_plugin-0.4.30.dist-info/METADATA",
               "Name: jax-cuda12-plugin\nVersion: 0.4.30\n");
    root.write(site + "/tensorrt_libs/libnvinfer.so.10", "x");
    root.write(site + "/tensorrt_cu12_libs-10.1.0.dist-info/METADATA",
               "Name: tensorrt-cu12-libs\nVersion: 10.1.0\n");
    root.write("/usr/include/NvInferVersion.h",
               "#define TRT_MAJOR_ENTERPRISE 10\n#define TRT_MINOR_ENTERPRISE 3\n#define "
               "TRT_PATCH_ENTERPRISE 0\n"
               "#define NV_TENSORRT_MAJOR TRT_MAJOR_ENTERPRISE\n#define NV_TENSORRT_MINOR "
               "TRT_MINOR_ENTERPRISE\n"
               "#define NV_TENSORRT_PATCH TRT_PATCH_ENTERPRISE\n");
    root.write("/usr/include/nccl.h",
               "#define NCCL_MAJOR 2\n#define NCCL_MINOR 21\n#define NCCL_PATCH 5\n");
    REQUIRE(root.error().empty());
    auto image = image::open_image(root.root(), {});
    auto analysis = inventory::analyze(*image);
    const auto& inv = analysis.inventory;
    INFO(inventory::to_json(inv).dump(1));

    const auto* tf = only(inv, "tensorflow");
    REQUIRE(tf != nullptr);
    CHECK(tf->version == "2.16.1");
    CHECK(tf->attributes.at("cuda") == "12.3");
    CHECK(tf->attributes.at("cudnn") == "8");

    const auto* ort = only(inv, "onnxruntime");
    REQUIRE(ort != nullptr);
    CHECK(ort->version == "1.18.0");
    CHECK(ort->attributes.at("cuda") == "12.4");
    CHECK(ort->attributes.at("cuda_provider") ==
          site + "/onnxruntime/capi/libonnxruntime_providers_cuda.so");

    const auto* paddle = only(inv, "paddle");
    REQUIRE(paddle != nullptr);
    CHECK(paddle->version == "2.6.1");
    CHECK(paddle->attributes.at("cudnn") == "8.9.1");

    const auto* cupy = only(inv, "cupy");
    REQUIRE(cupy != nullptr);
    CHECK(cupy->version == "13.2.0");
    CHECK(cupy->source == "pip");
    CHECK(cupy->evidence.size() == 2);

    REQUIRE(only(inv, "jaxlib") != nullptr);
    CHECK(only(inv, "jaxlib")->version == "0.4.30");
    REQUIRE(only(inv, "jax-cuda-plugin") != nullptr);

    auto trt = inv.find("tensorrt");
    REQUIRE(trt.size() == 2);  // the wheel's libs and the system header
    for (const auto* c : trt) {
        if (c->location == "/usr")
            CHECK(c->version == "10.3.0");
        else
            CHECK(c->version == "10.1.0");
    }
    REQUIRE(only(inv, "nccl") != nullptr);
    CHECK(only(inv, "nccl")->version == "2.21.5");
}
