// Catalog drive A (issue 37): rows in rules/python_packages.json for vision, 3D, graph,
// RAPIDS and NVIDIA library packages that held-back corpora install. Each test shows the
// verdict a row changes: CUVL03 on an unpinned CUDA package, CUVL07 gone where the package
// compiles with nvcc, CUVL14 gone where the package is its own visible GPU stack.
#include <catch2/catch.hpp>

#include "checks/lint_test_support.hpp"

using namespace cuvet;
using cuvet::test::db;
using cuvet::test::lint_ids;

namespace {

const std::string devel_torch =
    "FROM nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04\n"
    "RUN pip install torch==2.5.1 --index-url https://download.pytorch.org/whl/cu124\n";

}  // namespace

TEST_CASE("CUVL03 reports vision, 3D and graph CUDA extensions installed without a version",
          "[lint][lint-catalog-a][CUVL03]") {
    for (const std::string install :
         {"detectron2", "pytorch3d", "nvdiffrast", "tinycudann", "gsplat",
          "diff-gaussian-rasterization", "simple-knn", "kaolin", "torch-sparse", "torch-cluster",
          "torch-spline-conv", "pyg-lib", "apex"}) {
        INFO(install);
        const auto found = lint_ids(devel_torch + "RUN pip install " + install + "\n", "CUVL03");
        REQUIRE(found.size() == 1);
        CHECK(found[0].message.find(install) != std::string::npos);
        CHECK(lint_ids(devel_torch + "RUN pip install " + install + "==1.0.0\n", "CUVL03").empty());
    }
    // The CPU-only builds under their own names stay silent.
    CHECK(lint_ids(devel_torch + "RUN pip install open3d-cpu spconv\n", "CUVL03").empty());
}

TEST_CASE("CUVL03 reports NVIDIA's GPU Python libraries installed without a version",
          "[lint][lint-catalog-a][CUVL03]") {
    for (const std::string install :
         {"numba-cuda", "nvmath-python", "cuquantum-python", "transformer-engine-torch",
          "transformer-engine-jax", "\"transformer_engine[pytorch]\""}) {
        INFO(install);
        CHECK(lint_ids(devel_torch + "RUN pip install " + install + "\n", "CUVL03").size() == 1);
    }
    // The metapackage without an extra installs nothing.
    CHECK(lint_ids(devel_torch + "RUN pip install transformer_engine\n", "CUVL03").empty());
}

TEST_CASE("CUVL07 counts packages that compile with nvcc as a reason for a devel stage",
          "[lint][lint-catalog-a][CUVL07]") {
    // Without such a package the devel final stage compiles nothing.
    REQUIRE(lint_ids(devel_torch + "RUN pip install numpy==1.26.4\n", "CUVL07").size() == 1);
    for (const std::string install :
         {"detectron2==0.6", "pytorch3d==0.7.8", "nvdiffrast==0.4.0", "tinycudann==2.0",
          "gsplat==1.5.3", "diff-gaussian-rasterization==0.0.0", "simple-knn==0.0.0",
          "torch-sparse==0.6.18", "torch-cluster==1.6.3", "torch-spline-conv==1.2.2", "apex==0.1",
          "numba-cuda==0.30.4", "transformer-engine-torch==2.18", "transformer-engine-jax==2.18",
          "\"transformer_engine[pytorch]==2.18\""}) {
        INFO(install);
        CHECK(lint_ids(devel_torch + "RUN pip install " + install + "\n", "CUVL07").empty());
    }
    // Transformer Engine's core wheel is prebuilt: the devel stage stays unexplained.
    CHECK(lint_ids(devel_torch + "RUN pip install \"transformer_engine[core_cu12]==2.18\"\n",
                   "CUVL07")
              .size() == 1);
}

TEST_CASE("CUVL14 sees a package that carries its own GPU stack",
          "[lint][lint-catalog-a][CUVL14]") {
    const std::string base = "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\nCOPY . .\n";
    // The requirements file alone hides the stack.
    REQUIRE(lint_ids(base + "RUN pip install -r requirements.txt\n", "CUVL14").size() == 1);
    for (const std::string install : {"spconv-cu120==2.3.8", "nvidia-dali-cuda120==1.52.0"}) {
        INFO(install);
        CHECK(lint_ids(base + "RUN pip install " + install + " -r requirements.txt\n", "CUVL14")
                  .empty());
    }
}

TEST_CASE("Rows for CUDA-named RAPIDS, NVIDIA and graph packages state their CUDA major",
          "[rules][lint-catalog-a]") {
    const std::vector<std::pair<std::string, int>> named = {{"cudf-cu11", 11},
                                                            {"cudf-cu12", 12},
                                                            {"cuml-cu12", 12},
                                                            {"cugraph-cu12", 12},
                                                            {"cucim-cu12", 12},
                                                            {"cucim-cu13", 13},
                                                            {"cutensor-cu12", 12},
                                                            {"cutensor-cu13", 13},
                                                            {"cuquantum-python-cu11", 11},
                                                            {"cuquantum-python-cu12", 12},
                                                            {"transformer-engine-cu12", 12},
                                                            {"transformer-engine-cu13", 13},
                                                            {"nvidia-dali-cuda110", 11},
                                                            {"nvidia-dali-cuda130", 13},
                                                            {"spconv-cu102", 10},
                                                            {"spconv-cu118", 11},
                                                            {"dgl-cu90", 9},
                                                            {"dgl-cu102", 10}};
    for (const auto& [name, major] : named) {
        INFO(name);
        const auto* row = db().python_package(name);
        REQUIRE(row != nullptr);
        CHECK(row->cuda_major == major);
    }
    // DALI's CUDA 11 builds need no CUDA toolkit, its CUDA 12 builds link it dynamically.
    CHECK(db().python_package("nvidia-dali-cuda110")->cuda_libraries == "bundled");
    CHECK(db().python_package("nvidia-dali-cuda120")->cuda_libraries == "system");
    CHECK(db().python_package("spconv")->role == "cpu_only");
    CHECK(db().python_package("open3d-cpu")->role == "cpu_only");
}
