// Frameworks the inventory knows from the catalog alone (rules/frameworks.json "catalog"):
// MXNet and PaddlePaddle wheels as pip installs them (dist-info METADATA and RECORD, the
// package's own version file), a per-minor CuPy wheel and a conda PaddlePaddle.
#include <catch2/catch.hpp>

#include "cuvet/image/image.hpp"
#include "cuvet/inventory/analysis.hpp"
#include "support/inventory_queries.hpp"
#include "support/rootfs_builder.hpp"

namespace {

using namespace cuvet;
using test::only;

}  // namespace

TEST_CASE("inventory: MXNet and PaddlePaddle wheels from the catalog", "[inventory][catalog]") {
    test::Rootfs root;
    const std::string site = "/usr/local/lib/python3.8/dist-packages";
    root.write(site + "/mxnet_cu112-1.9.1.dist-info/METADATA",
               "Metadata-Version: 2.1\nName: mxnet-cu112\nVersion: 1.9.1\n\nlong text\n");
    root.write(site + "/mxnet_cu112-1.9.1.dist-info/RECORD",
               "mxnet/__init__.py,,\nmxnet/libmxnet.so,,\nmxnet/libinfo.py,,\n");
    root.write(site + "/mxnet/libinfo.py",
               "def find_lib_path():\n    pass\n__version__ = \"1.9.1\"\n");
    root.write(site + "/paddlepaddle_gpu-2.6.1.post120.dist-info/METADATA",
               "Metadata-Version: 2.1\nName: paddlepaddle-gpu\nVersion: 2.6.1.post120\n");
    root.write(site + "/paddle/version/__init__.py",
               "# THIS FILE IS GENERATED FROM PADDLEPADDLE SETUP.PY\n#\nfull_version    = "
               "'2.6.1'\ncuda_version    = '12.0'\ncudnn_version   = '8.9.1'\n");
    root.write(site + "/cupy_cuda102-9.6.0.dist-info/METADATA",
               "Name: cupy-cuda102\nVersion: 9.6.0\n");
    REQUIRE(root.error().empty());
    auto image = image::open_image(root.root(), {});
    auto inv = inventory::analyze(*image).inventory;
    INFO(inventory::to_json(inv).dump(1));

    const auto* mxnet = only(inv, "mxnet");
    REQUIRE(mxnet != nullptr);
    CHECK(mxnet->version == "1.9.1");
    CHECK(mxnet->category == "framework");
    CHECK(mxnet->attributes.at("cuda") == "11.2");  // from the wheel's name
    CHECK(mxnet->attributes.at("package") == "mxnet-cu112");
    CHECK(mxnet->evidence.size() == 2);  // the dist-info and libinfo.py, one copy

    const auto* paddle = only(inv, "paddle");
    REQUIRE(paddle != nullptr);
    CHECK(paddle->version == "2.6.1.post120");  // the package's version outranks the file's
    CHECK(paddle->attributes.at("cuda") == "12.0");
    CHECK(paddle->attributes.at("cudnn") == "8.9.1");
    CHECK(paddle->attributes.at("package") == "paddlepaddle-gpu");

    const auto* cupy = only(inv, "cupy");
    REQUIRE(cupy != nullptr);
    CHECK(cupy->attributes.at("cuda") == "10.2");  // per-minor wheel: 102 is 10.2
}

TEST_CASE("inventory: a conda PaddlePaddle from the catalog", "[inventory][catalog]") {
    test::Rootfs root;
    root.write(
        "/opt/conda/conda-meta/paddlepaddle-gpu-2.5.2-py310_gpu_cuda11.7.json",
        R"({"name": "paddlepaddle-gpu", "version": "2.5.2", "build": "py310_gpu_cuda11.7"})");
    root.write("/opt/conda/conda-meta/numpy-1.26.4-py310.json",
               R"({"name": "numpy", "version": "1.26.4", "build": "py310"})");
    root.write("/opt/conda/lib/python3.10/site-packages/paddle/__init__.py", "");
    REQUIRE(root.error().empty());
    auto image = image::open_image(root.root(), {});
    auto inv = inventory::analyze(*image).inventory;
    INFO(inventory::to_json(inv).dump(1));
    const auto* paddle = only(inv, "paddle");
    REQUIRE(paddle != nullptr);
    CHECK(paddle->version == "2.5.2");
    CHECK(paddle->source == "conda");
    CHECK(paddle->location == "/opt/conda/lib/python3.10/site-packages/paddle");
    CHECK(inv.find("numpy").empty());
}
