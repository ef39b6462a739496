// Each CUVLxx check with a Dockerfile that fails it and one that passes,
// through the same library call `cuvet lint` makes, against the built-in rules.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "cuvet/core/error.hpp"
#include "cuvet/lint/lint.hpp"
#include "cuvet/rules/database.hpp"
#include "support/builtin_rules.hpp"
#include "support/skip.hpp"

using cuvet::test::db;
using namespace cuvet;

namespace {

std::vector<report::Finding> lint_with(const std::string& text, const std::string& id,
                                       const lint::Options& options = {}) {
    auto result = lint::lint_text(text, "Dockerfile", db(), options);
    std::vector<report::Finding> out;
    std::copy_if(result.findings.begin(), result.findings.end(), std::back_inserter(out),
                 [&](const report::Finding& f) { return f.id == id; });
    return out;
}

}  // namespace

TEST_CASE("CUVL01 wheel CUDA vs base CUDA", "[lint][CUVL01]") {
    auto found = lint_with(
        "FROM nvidia/cuda:12.1.1-cudnn8-runtime-ubuntu22.04\n"
        "RUN pip install torch==2.1.0 torchvision==0.16.0 \\\n"
        "    --index-url https://download.pytorch.org/whl/cu118\n",
        "CUVL01");
    REQUIRE(found.size() == 1);
    CHECK(found[0].locations.at(0).line == 2);
    CHECK(found[0].locations.at(0).end_line == 3);
    CHECK(found[0].severity == report::Severity::warning);
    CHECK_THAT(found[0].message, Catch::Contains("CUDA 11.8") && Catch::Contains("dead weight"));

    // A wheel that uses the system libraries fails outright on another CUDA major.
    found = lint_with(
        "FROM nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04\n"
        "RUN pip install onnxruntime-gpu==1.19.2\n",
        "CUVL01");
    REQUIRE(found.size() == 1);
    CHECK(found[0].severity == report::Severity::error);
    CHECK_THAT(found[0].message, Catch::Contains("libcudart.so.12"));

    CHECK(lint_with(
              "FROM nvidia/cuda:12.1.1-cudnn8-runtime-ubuntu22.04\n"
              "RUN pip install torch==2.1.0 --index-url https://download.pytorch.org/whl/cu121\n",
              "CUVL01")
              .empty());
    // PyPI's default torch 2.1 is the cu121 build.
    CHECK(lint_with(
              "FROM nvidia/cuda:12.1.1-cudnn8-runtime-ubuntu22.04\nRUN pip install torch==2.1.2\n",
              "CUVL01")
              .empty());
    // The cu121 wheel on a 12.4 base: torch runs its own CUDA 12.1 on the 12.4 driver.
    CHECK(lint_with(
              "FROM nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04\nRUN pip install torch==2.1.2\n",
              "CUVL01")
              .empty());
}

TEST_CASE("CUVL01 tensorrt_llm wheel built for another CUDA than the base", "[lint][CUVL01]") {
    // 1.1's wheels are CUDA 12.9 builds (CUDA 13.0 only in the NGC container).
    auto found = lint_with(
        "FROM nvidia/cuda:13.0.1-devel-ubuntu24.04\n"
        "RUN pip install tensorrt_llm==1.1.0\n",
        "CUVL01");
    REQUIRE(found.size() == 1);
    CHECK(found[0].locations.at(0).line == 2);
    CHECK_THAT(found[0].message, Catch::Contains("CUDA 12.9") && Catch::Contains("CUDA 13.0.1"));
    CHECK_THAT(found[0].fix, Catch::Contains("tensorrt-llm 1.2"));  // the CUDA 13.0 wheel
    // 1.2 is built for CUDA 13.0: no finding on the same base.
    CHECK(lint_with("FROM nvidia/cuda:13.0.1-devel-ubuntu24.04\n"
                    "RUN pip install tensorrt-llm==1.2.0\n",
                    "CUVL01")
              .empty());
}

TEST_CASE("CUVL01 paddlepaddle-gpu build from PyPI or a .postXYZ suffix or the paddle index",
          "[lint][CUVL01]") {
    // 2.5's PyPI wheel is the CUDA 11.8 / cuDNN 8 build, which loads the system's libraries.
    auto found = lint_with(
        "FROM nvidia/cuda:12.6.3-cudnn-runtime-ubuntu22.04\n"
        "RUN pip install paddlepaddle-gpu==2.5.2\n",
        "CUVL01");
    REQUIRE(found.size() == 1);
    CHECK(found[0].severity == report::Severity::error);
    CHECK_THAT(found[0].message,
               Catch::Contains("CUDA 11.8") && Catch::Contains("libcudart.so.11.0"));
    CHECK(lint_with("FROM nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04\n"
                    "RUN pip install paddlepaddle-gpu==2.5.2\n",
                    "CUVL01")
              .empty());
    // The suffix names the CUDA; the row adds cuDNN 8, which a cuDNN 9 base lacks.
    found = lint_with(
        "FROM nvidia/cuda:12.6.3-cudnn-runtime-ubuntu22.04\n"
        "RUN pip install paddlepaddle-gpu==2.6.2.post120 -f "
        "https://www.paddlepaddle.org.cn/whl/linux/mkl/avx/stable.html\n",
        "CUVL01");
    REQUIRE(found.size() == 1);
    CHECK_THAT(found[0].message, Catch::Contains("libcudnn.so.8"));
    // 3.x wheels bring their CUDA libraries: another CUDA on the base is only dead weight.
    found = lint_with(
        "FROM nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04\n"
        "RUN pip install paddlepaddle-gpu==3.0.0 -i "
        "https://www.paddlepaddle.org.cn/packages/stable/cu126/\n",
        "CUVL01");
    REQUIRE(found.size() == 1);
    CHECK(found[0].severity == report::Severity::warning);
    CHECK_THAT(found[0].fix, Catch::Contains("cu118"));
}

TEST_CASE("CUVL02 LD_LIBRARY_PATH shadows bundled libraries", "[lint][CUVL02]") {
    const std::string bad =
        "FROM nvidia/cuda:12.1.1-cudnn8-runtime-ubuntu22.04\n"
        "ENV LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/lib/x86_64-linux-gnu\n"
        "RUN pip install torch==2.4.0\n";
    auto found = lint_with(bad, "CUVL02");
    REQUIRE(found.size() == 1);
    CHECK(found[0].locations.at(0).line == 2);
    CHECK(lint_with("FROM nvidia/cuda:12.1.1-cudnn8-runtime-ubuntu22.04\n"
                    "ENV LD_LIBRARY_PATH=/usr/local/nvidia/lib64\n"
                    "RUN pip install torch==2.4.0\n",
                    "CUVL02")
              .empty());
    CHECK(lint_with("FROM nvidia/cuda:12.1.1-cudnn8-runtime-ubuntu22.04\n"
                    "ENV LD_LIBRARY_PATH=/usr/local/cuda/lib64\n"
                    "RUN apt-get install -y python3\n",
                    "CUVL02")
              .empty());
}

TEST_CASE("CUVL03 unpinned framework or cuDNN", "[lint][CUVL03]") {
    auto found =
        lint_with("FROM python:3.11-slim\nRUN pip install torch \"jax[cuda12]>=0.4\"\n", "CUVL03");
    REQUIRE(found.size() == 1);  // one finding per install command
    CHECK_THAT(found[0].message, Catch::Contains("torch jax[cuda12]>=0.4"));
    CHECK_THAT(found[0].fix, Catch::Contains("jax[cuda12]==<version>"));
    CHECK(lint_with("FROM python:3.11-slim\nRUN pip install torch==2.4.1 requests\n", "CUVL03")
              .empty());
    CHECK(lint_with("FROM continuumio/miniconda3\nRUN conda install -y cudnn\n", "CUVL03").size() ==
          1);
}

TEST_CASE("CUVL04 apt cuDNN without pin or hold", "[lint][CUVL04]") {
    CHECK(
        lint_with("FROM nvidia/cuda:12.1.1-runtime-ubuntu22.04\nRUN apt-get install -y libcudnn8\n",
                  "CUVL04")
            .size() == 1);
    CHECK(lint_with("FROM nvidia/cuda:12.1.1-runtime-ubuntu22.04\n"
                    "RUN apt-get install -y libcudnn8=8.9.0.131-1+cuda12.1\n",
                    "CUVL04")
              .empty());
    CHECK(lint_with("FROM nvidia/cuda:12.1.1-runtime-ubuntu22.04\n"
                    "RUN apt-get install -y libcudnn8 && apt-mark hold libcudnn8\n",
                    "CUVL04")
              .empty());
}

TEST_CASE("CUVL05 deprecated tensorflow-gpu", "[lint][CUVL05]") {
    CHECK(
        lint_with("FROM python:3.10\nRUN pip install tensorflow-gpu==2.10.0\n", "CUVL05").size() ==
        1);
    CHECK(lint_with("FROM python:3.10\nRUN pip install tensorflow[and-cuda]==2.15.0\n", "CUVL05")
              .empty());
}

TEST_CASE("CUVL06 conda and pip both install CUDA", "[lint][CUVL06]") {
    CHECK(lint_with("FROM continuumio/miniconda3\n"
                    "RUN conda install -y -c nvidia cudatoolkit=11.8 cudnn=8.9\n"
                    "RUN pip install torch==2.4.0\n",
                    "CUVL06")
              .size() == 1);
    CHECK(lint_with("FROM continuumio/miniconda3\nRUN conda install -y numpy\nRUN pip install "
                    "torch==2.4.0\n",
                    "CUVL06")
              .empty());
}

TEST_CASE("CUVL07 devel image as the final stage", "[lint][CUVL07]") {
    auto found =
        lint_with("FROM nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04\nCMD [\"python3\"]\n", "CUVL07");
    REQUIRE(found.size() == 1);
    CHECK(found[0].locations.at(0).line == 1);
    CHECK(lint_with(
              "FROM nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04 AS build\nRUN make\n"
              "FROM nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04\nCOPY --from=build /out /app\n",
              "CUVL07")
              .empty());
}

TEST_CASE("CUVL08 CUDA needs a newer driver than the fleet", "[lint][CUVL08]") {
    lint::Options old_driver;
    old_driver.drivers = {"470.82.01"};
    auto found = lint_with("FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n", "CUVL08", old_driver);
    REQUIRE(found.size() == 1);
    CHECK(found[0].severity == report::Severity::error);
    lint::Options minor_compat;
    minor_compat.drivers = {"535.104.05"};
    found = lint_with("FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n", "CUVL08", minor_compat);
    REQUIRE(found.size() == 1);
    CHECK(found[0].severity == report::Severity::warning);
    lint::Options new_driver;
    new_driver.drivers = {"550.54.15"};
    CHECK(lint_with("FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n", "CUVL08", new_driver).empty());
    CHECK(lint_with("FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n", "CUVL08").empty());
}

TEST_CASE("CUVL09 base tag outside the published scheme", "[lint][CUVL09]") {
    auto found = lint_with("FROM nvidia/cuda:12.4.1-cudnn8-runtime-ubuntu22.04\n", "CUVL09");
    REQUIRE(found.size() == 1);
    CHECK_THAT(found[0].message, Catch::Contains("'cudnn'"));
    CHECK(lint_with("FROM nvidia/cuda:12.1.1-cudnn-runtime-ubuntu22.04\n", "CUVL09").size() == 1);
    CHECK(lint_with("FROM nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04\n", "CUVL09").empty());
    CHECK(lint_with("FROM nvidia/cuda:12.1.1-cudnn8-runtime-ubuntu22.04\n", "CUVL09").empty());
    CHECK(lint_with("FROM nvidia/cuda:12.1.1-cudnn8-base-ubuntu22.04\n", "CUVL09").size() == 1);
}

TEST_CASE("CUVL10 GPU package without system CUDA", "[lint][CUVL10]") {
    CHECK(lint_with("FROM python:3.11-slim\nRUN pip install onnxruntime-gpu==1.19.2\n", "CUVL10")
              .size() == 1);
    CHECK(lint_with("FROM nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04\nRUN pip install "
                    "onnxruntime-gpu==1.19.2\n",
                    "CUVL10")
              .empty());
    CHECK(lint_with("FROM python:3.11-slim\nRUN pip install onnxruntime-gpu==1.19.2 "
                    "nvidia-cudnn-cu12==9.1.0.70\n",
                    "CUVL10")
              .empty());
}

TEST_CASE("CUVL01 onnxruntime-gpu from 1.27 is the CUDA 13 build", "[lint][CUVL01][rules37]") {
    // microsoft/onnxruntime#29032: from 1.27 the main onnxruntime-gpu is built for CUDA 13. On a
    // CUDA 12 base its CUDA provider finds no libcudart.so.13 and ORT quietly runs on the CPU.
    const std::string cuda12 = "FROM nvidia/cuda:12.8.1-cudnn-runtime-ubuntu22.04\n";
    auto found = lint_with(cuda12 + "RUN pip install onnxruntime-gpu==1.27.0\n", "CUVL01");
    REQUIRE(found.size() == 1);
    CHECK(found[0].severity == report::Severity::error);
    CHECK_THAT(found[0].message, Catch::Contains("CUDA 13") && Catch::Contains("libcudart.so.13"));
    // 1.26 was the last CUDA 12 build on PyPI.
    CHECK(lint_with(cuda12 + "RUN pip install onnxruntime-gpu==1.26.0\n", "CUVL01").empty());
    // The deprecated CUDA 12 build of 1.28 from Microsoft's feed matches the base.
    CHECK(lint_with(cuda12 + "RUN pip install onnxruntime-gpu==1.28.0 --extra-index-url "
                             "https://aiinfra.pkgs.visualstudio.com/PublicPackages/_packaging/"
                             "onnxruntime-cuda-12/pypi/simple/\n",
                    "CUVL01")
              .empty());
    CHECK(lint_with("FROM nvidia/cuda:13.0.1-runtime-ubuntu24.04\n"
                    "RUN pip install onnxruntime-gpu==1.27.0\n",
                    "CUVL01")
              .empty());
}

TEST_CASE("CUVL10 onnxruntime-gpu 1.28 starts its CUDA provider without cuDNN",
          "[lint][CUVL10][rules37]") {
    // ONNX Runtime 1.28.0 release notes: "cuDNN and cuFFT are now optional at runtime for the
    // CUDA EP". 1.27 on a CUDA image without cuDNN still loses its GPU provider.
    const std::string base = "FROM nvidia/cuda:13.0.1-runtime-ubuntu24.04\n";
    auto found = lint_with(base + "RUN pip install onnxruntime-gpu==1.27.0\n", "CUVL10");
    REQUIRE(found.size() == 1);
    CHECK_THAT(found[0].message, Catch::Contains("without cuDNN"));
    CHECK(lint_with(base + "RUN pip install onnxruntime-gpu==1.28.0\n", "CUVL10").empty());
    // A system cuDNN of another major does not stop 1.28 either (CUVL01's cuDNN half).
    CHECK(lint_with("FROM nvidia/cuda:12.2.2-cudnn8-runtime-ubuntu22.04\n"
                    "RUN pip install onnxruntime-gpu==1.28.0 --extra-index-url "
                    "https://aiinfra.pkgs.visualstudio.com/PublicPackages/_packaging/"
                    "onnxruntime-cuda-12/pypi/simple/\n",
                    "CUVL01")
              .empty());
}

TEST_CASE("inline ignores", "[lint]") {
    const std::string text =
        "# cuvet global ignore=CUVL07\n"
        "FROM nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04\n"
        "# cuvet ignore=CUVL03\n"
        "RUN pip install torch\n"
        "RUN pip install jax[cuda12]\n";
    auto result = lint::lint_text(text, "Dockerfile", db());
    int cuvl03 = 0, cuvl07 = 0;
    for (const auto& f : result.findings) {
        cuvl03 += f.id == "CUVL03";
        cuvl07 += f.id == "CUVL07";
        if (f.id == "CUVL03") CHECK(f.locations.at(0).line == 5);
    }
    CHECK(cuvl03 == 1);
    CHECK(cuvl07 == 0);
}

TEST_CASE("every upstream parser case lints without escaping errors", "[lint][conformance]") {
    namespace fs = std::filesystem;
    fs::path dir = fs::path(CUVET_SOURCE_DIR) / ".." / "shared" / "conformance" / "buildkit-parser";
    if (const char* env = std::getenv("CUVET_CONFORMANCE_DIR"); env && *env) dir = env;
    if (!fs::is_directory(dir)) {
        CUVET_SKIP("skipped: no conformance data at " << dir.string());
    }
    int linted = 0, rejected = 0;
    for (const auto& entry : fs::recursive_directory_iterator(dir)) {
        if (entry.path().filename() != "Dockerfile") continue;
        std::ifstream in(entry.path(), std::ios::binary);
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        lint::Options options;
        options.drivers = {"450.80.02"};
        try {
            lint::lint_text(text, entry.path().string(), db(), options);
            ++linted;
        } catch (const cuvet::Error&) {
            ++rejected;  // docker would reject it too (negative cases, unknown instructions)
        }
    }
    CHECK(linted > 20);
    WARN("linted " << linted << " upstream Dockerfiles, " << rejected
                   << " rejected as input errors");
}
