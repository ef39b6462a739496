// The Dockerfile patterns real GPU projects use (issue 12), each as a minimal
// Dockerfile of our own: install commands the facts must understand, the new
// CUVL11–CUVL14 checks (their own files: cuvl1N_*_test.cpp), and the false alarms the older checks
// must not raise.
#include <algorithm>
#include <catch2/catch.hpp>
#include <iterator>

#include "checks/lint/lint_support.hpp"
#include "checks/lint_test_support.hpp"
#include "cuvet/dockerfile/facts.hpp"
#include "cuvet/dockerfile/parser.hpp"
#include "cuvet/dockerfile/stages.hpp"
#include "cuvet/lint/lint.hpp"
#include "cuvet/rules/database.hpp"
#include "cuvet/rules/embedded.hpp"
#include "support/builtin_rules.hpp"

using cuvet::test::db;
using namespace cuvet;
using cuvet::test::lint_ids;

namespace {

dockerfile::Facts facts_of(const std::string& text) {
    auto parsed = dockerfile::parse(text, "Dockerfile");
    auto build = dockerfile::analyze(parsed);
    return dockerfile::extract_facts(std::move(parsed), std::move(build));
}

const dockerfile::Package* package(const dockerfile::Facts& facts, const std::string& name) {
    for (const auto& p : facts.final_stage().packages) {
        if (p.name == name) return &p;
    }
    return nullptr;
}

std::size_t words(const std::string& text) {
    std::size_t n = 0;
    bool in_word = false;
    for (char c : text) {
        const bool space = c == ' ' || c == '\n';
        if (!space && !in_word) ++n;
        in_word = !space;
    }
    return n;
}

}  // namespace

TEST_CASE("install commands: python -m pip, uv, conda run, shell variables", "[lint][facts]") {
    auto facts = facts_of(
        "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n"
        "ARG TORCH=2.5.1\n"
        "ARG CU=cu124\n"
        "RUN python3 -m pip install --no-cache-dir torch==${TORCH}+${CU}\n"
        "RUN python -mpip install jax==0.4.30\n"
        "RUN uv pip install --system cupy-cuda12x==13.3.0\n"
        "RUN python -m uv pip install xformers==0.0.28\n"
        "RUN conda run -n env pip install onnxruntime-gpu==1.19.2\n"
        "RUN micromamba run -n base python -m pip install bitsandbytes==0.44.1\n"
        "RUN PIP_INSTALL=\"python -m pip --no-cache-dir install\" && $PIP_INSTALL "
        "flash-attn==2.6.3\n");
    const auto* torch = package(facts, "torch");
    REQUIRE(torch);
    CHECK(torch->version == "2.5.1+cu124");
    CHECK(torch->cuda == "12.4");
    for (const char* name :
         {"jax", "cupy-cuda12x", "xformers", "onnxruntime-gpu", "bitsandbytes", "flash-attn"}) {
        INFO(name);
        CHECK(package(facts, name));
    }
}

TEST_CASE("install commands the linter cannot see into are recorded", "[lint][facts]") {
    auto facts = facts_of(
        "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n"
        "RUN pip install -r requirements.txt -c constraints.txt\n"
        "RUN pip install git+https://github.com/example/kernels.git@v1 ./vendor/pkg\n"
        "RUN uv sync --frozen --extra cuda\n"
        "RUN poetry install --extras gpu\n"
        "RUN pip install -e .\n");
    const auto& r = facts.final_stage().requirements;
    REQUIRE(r.size() == 7);
    CHECK(r[1].constraints);
    CHECK(r[2].kind == "git URL");
    CHECK(r[3].kind == "local project");
    CHECK(r[4].path == "uv sync --frozen --extra cuda");
    CHECK(r[5].path == "poetry install --extras gpu");
    CHECK(r[6].kind == "local project");
}

TEST_CASE("bash substring expansion in RUN is not a parse error", "[lint][facts]") {
    auto facts = facts_of(
        "FROM ubuntu:22.04\n"
        "ARG CUDA_VERSION=12.4.1\n"
        "RUN if [ \"${CUDA_VERSION:0:2}\" = \"12\" ]; then apt-get install -y cuda-toolkit-12-4; "
        "fi\n");
    CHECK(package(facts, "cuda-toolkit-12-4"));
}

TEST_CASE("CUVL07 stays quiet on stages that compile CUDA code", "[lint][CUVL07]") {
    for (const char* run : {"RUN nvcc -o k k.cu", "RUN cmake -B build . && cmake --build build",
                            "RUN python setup.py build_ext --inplace", "RUN pip install -e .",
                            "ENV TORCH_CUDA_ARCH_LIST=\"8.0;9.0\"", "ENV FORCE_CUDA=1"}) {
        INFO(run);
        CHECK(lint_ids(std::string("FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n") + run + "\n",
                       "CUVL07")
                  .empty());
    }
    auto found = lint_ids(
        "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nRUN pip install onnxruntime-gpu==1.19.2\n",
        "CUVL07");
    REQUIRE(found.size() == 1);
    CHECK_THAT(found[0].fix, Catch::Contains("12.4.1-runtime-ubuntu22.04"));
}

TEST_CASE("CUVL03 pins and wording", "[lint][CUVL03]") {
    CHECK(lint_ids("FROM python:3.11\nRUN pip install torch~=2.4.0\n", "CUVL03").empty());
    CHECK(lint_ids("FROM python:3.11\nRUN pip install \"jax[cuda12]==0.4.*\"\n", "CUVL03").empty());
    auto found = lint_ids("FROM python:3.11\nRUN pip install bitsandbytes\n", "CUVL03");
    REQUIRE(found.size() == 1);
    CHECK_THAT(found[0].message, !Catch::Contains("torch"));
    found = lint_ids(
        "FROM python:3.11\nRUN pip install torch --extra-index-url "
        "https://download.pytorch.org/whl/cu118\n",
        "CUVL03");
    REQUIRE(found.size() == 1);
    CHECK_THAT(found[0].message, Catch::Contains("extra-index-url"));
    CHECK(lint_ids("FROM python:3.11\nRUN pip install torch --index-url "
                   "https://download.pytorch.org/whl/cpu\n",
                   "CUVL03")
              .empty());
}

TEST_CASE("CUVL01 takes --extra-index-url's CUDA only for a pinned package", "[lint][CUVL01]") {
    // Unpinned, pip takes the newest torch of PyPI and the extra index: usually PyPI's
    // default build, so the index does not say which CUDA it brings (CUVL03 says that).
    const std::string base = "FROM nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04\n";
    CHECK(lint_ids(base + "RUN pip install torch --extra-index-url "
                          "https://download.pytorch.org/whl/cu118\n",
                   "CUVL01")
              .empty());
    // Pinned, the +cu118 local version sorts above PyPI's 2.3.0: the cu118 build it is.
    auto found = lint_ids(base +
                              "RUN pip install torch==2.3.0 --extra-index-url "
                              "https://download.pytorch.org/whl/cu118\n",
                          "CUVL01");
    REQUIRE(found.size() == 1);
    CHECK_THAT(found[0].message, Catch::Contains("11.8"));
    // --index-url replaces PyPI: the index decides even without a pin.
    CHECK(lint_ids(
              base + "RUN pip install torch --index-url https://download.pytorch.org/whl/cu118\n",
              "CUVL01")
              .size() == 1);
}

TEST_CASE("CUVL05 tensorflow-gpu before 2.1 was the GPU build", "[lint][CUVL05]") {
    CHECK(lint_ids("FROM python:3.7\nRUN pip install tensorflow-gpu==1.15.5\n", "CUVL05").empty());
    CHECK(lint_ids("FROM python:3.9\nRUN pip install tensorflow-gpu==2.10.0\n", "CUVL05").size() ==
          1);
    CHECK(lint_ids("FROM python:3.9\nRUN pip install pytorch==1.8.0\n", "CUVL05").size() == 1);
    CHECK(lint_ids("FROM python:3.9\nRUN pip install onnxruntime==1.17.0 onnxruntime-gpu==1.17.0\n",
                   "CUVL05")
              .size() == 1);
}

TEST_CASE("CUVL02 accepts LD_LIBRARY_PATH entries of the wheel's own libraries", "[lint][CUVL02]") {
    CHECK(lint_ids("FROM nvidia/cuda:12.1.1-cudnn8-runtime-ubuntu22.04\n"
                   "ENV LD_LIBRARY_PATH=/usr/local/lib/python3.10/dist-packages/nvidia/cudnn/lib\n"
                   "RUN pip install torch==2.4.0\n",
                   "CUVL02")
              .empty());
}

TEST_CASE("CUVL04 accepts exact apt cuDNN pins with wildcards in the build", "[lint][CUVL04]") {
    CHECK(lint_ids("FROM nvidia/cuda:11.8.0-runtime-ubuntu22.04\n"
                   "RUN apt-get install -y libcudnn8=8.6.0.*-1+cuda11.8\n",
                   "CUVL04")
              .empty());
}

TEST_CASE("every lint message stays short", "[lint]") {
    const std::string text =
        "FROM nvidia/cuda:12.1.1-cudnn8-devel-ubuntu22.04\n"
        "ENV LD_LIBRARY_PATH=/usr/local/cuda/lib64/stubs:/usr/lib/x86_64-linux-gnu\n"
        "RUN apt-get install -y libcudnn8 nvidia-driver-535 libcudnn9-cuda-11\n"
        "RUN pip install torch==2.1.0 --index-url https://download.pytorch.org/whl/cu118\n"
        "RUN pip install onnxruntime-gpu==1.19.2 tensorflow-gpu bitsandbytes\n";
    auto result = lint::lint_text(text, "Dockerfile", db());
    REQUIRE(result.findings.size() >= 6);
    for (const auto& f : result.findings) {
        INFO(f.id << ": " << f.message);
        CHECK(words(f.message) <= 45);
    }
}

TEST_CASE("CUVL01 fixes name only builds that exist", "[lint][CUVL01]") {
    // torch 2.1 was never built for CUDA 11.6, torch 2.8 never for CUDA 13.0.
    auto found = lint_ids(
        "FROM nvidia/cuda:11.6.2-cudnn8-runtime-ubuntu20.04\n"
        "RUN pip install torch==2.1.0 --index-url https://download.pytorch.org/whl/cu121\n",
        "CUVL01");
    REQUIRE(found.size() == 1);
    CHECK_THAT(found[0].fix, !Catch::Contains("torch==2.1.0 (cu116"));
    found = lint_ids(
        "FROM nvidia/cuda:13.0.1-runtime-ubuntu24.04\n"
        "RUN pip install torch==2.8.0 --index-url https://download.pytorch.org/whl/cu128\n",
        "CUVL01");
    REQUIRE(found.size() == 1);
    CHECK_THAT(found[0].fix, !Catch::Contains("torch==2.8.0 (cu130"));
    // A +cu118 local version is the cu118 build, whatever PyPI's default is.
    found = lint_ids(
        "FROM nvidia/cuda:12.1.1-cudnn8-runtime-ubuntu22.04\n"
        "ARG TORCH=2.1.2\nARG CU=cu118\n"
        "RUN pip install torch==${TORCH}+${CU} --extra-index-url "
        "https://download.pytorch.org/whl/${CU}\n",
        "CUVL01");
    REQUIRE(found.size() == 1);
    CHECK_THAT(found[0].message, Catch::Contains("CUDA 11.8") && !Catch::Contains("12.1 build"));
}

TEST_CASE("CUVL01 torch extensions compiled against another CUDA major", "[lint][CUVL01]") {
    auto found = lint_ids(
        "FROM nvidia/cuda:12.2.2-devel-ubuntu22.04\n"
        "RUN pip install torch==1.13.0\n"
        "ENV TORCH_CUDA_ARCH_LIST=\"8.0\"\n"
        "RUN pip install -e .\n",
        "CUVL01");
    REQUIRE(found.size() == 1);
    CHECK(found[0].severity == report::Severity::error);
    CHECK_THAT(found[0].message,
               Catch::Contains("mismatches the version that was used to compile PyTorch"));
}

TEST_CASE("CUVL09 deleted, untagged and misnamed nvidia/cuda bases", "[lint][CUVL09]") {
    auto found = lint_ids("FROM nvidia/cuda:11.4.0-cudnn8-runtime-ubuntu20.04\n", "CUVL09");
    REQUIRE(found.size() == 1);
    CHECK_THAT(found[0].message, Catch::Contains("manifest unknown"));
    CHECK_THAT(found[0].fix, Catch::Contains("11.4.3"));
    found =
        lint_ids("ARG CUDA=10.1\nFROM nvidia/cuda:${CUDA}-cudnn7-devel-ubuntu18.04\n", "CUVL09");
    REQUIRE(found.size() == 1);
    CHECK(found[0].locations.at(0).line == 2);
    CHECK(lint_ids("FROM nvidia/cuda\n", "CUVL09").size() == 1);
    CHECK(lint_ids("FROM nvidia/cuda:11.2.2-cudnn8-devel\n", "CUVL09").size() ==
          1);  // no OS suffix
    found = lint_ids("FROM nvidia/11.8.0-runtime-ubuntu22.04\n", "CUVL09");
    REQUIRE(found.size() == 1);
    CHECK_THAT(found[0].fix, Catch::Contains("nvidia/cuda:11.8.0-runtime-ubuntu22.04"));
    CHECK(lint_ids("FROM nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04\n", "CUVL09").empty());
    CHECK(lint_ids("FROM nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04\n", "CUVL09").empty());
}

namespace {

// The built-in rules with one table's text edited, to show a check reads the table.
rules::Database db_with(const std::string& name, const std::string& from, const std::string& to) {
    std::vector<rules::Database::File> files;
    for (const auto& [file, contents] : rules::embedded_rule_files()) {
        std::string text(contents);
        if (std::string(file) == name) {
            const auto at = text.find(from);
            REQUIRE(at != std::string::npos);
            text.replace(at, from.size(), to);
        }
        files.push_back({std::string(file), text, "rules/" + std::string(file)});
    }
    return rules::Database::from_files(files);
}

}  // namespace

TEST_CASE("CUVL03 knows CUDA-dependent packages from the rules database", "[lint][CUVL03]") {
    for (const char* install :
         {"pip install onnxruntime-gpu", "pip install cupy-cuda12x", "pip install \"jax[cuda12]\"",
          "pip install paddlepaddle-gpu", "pip install mxnet-cu112", "pip install tensorrt",
          "pip install vllm", "pip install xformers", "pip install flash-attn",
          "pip install bitsandbytes", "pip install ctranslate2 faster-whisper",
          "pip install deepspeed", "pip install tensorrt_llm", "pip install cuda-python",
          "conda install -y pytorch-nightly -c pytorch", "pip install tf-nightly"}) {
        INFO(install);
        CHECK(lint_ids(std::string("FROM python:3.11\nRUN ") + install + "\n", "CUVL03").size() ==
              1);
    }
    for (const char* install : {"pip install onnxruntime", "pip install tensorflow-cpu",
                                "pip install jax jaxlib", "pip install paddlepaddle"}) {
        INFO(install);
        CHECK(lint_ids(std::string("FROM python:3.11\nRUN ") + install + "\n", "CUVL03").empty());
    }
    // The answer is the table's: xformers marked CPU-only there is no longer reported.
    const rules::Database edited = db_with("python_packages.json",
                                           "{\"name\": \"xformers\", \"ecosystem\": \"pypi\", "
                                           "\"role\": \"extension\"",
                                           "{\"name\": \"xformers\", \"ecosystem\": \"pypi\", "
                                           "\"role\": \"cpu_only\"");
    auto result =
        lint::lint_text("FROM python:3.11\nRUN pip install xformers\n", "Dockerfile", edited);
    CHECK(std::none_of(result.findings.begin(), result.findings.end(),
                       [](const report::Finding& f) { return f.id == "CUVL03"; }));
}

TEST_CASE("NGC bases of every framework are read from ngc_containers.json", "[lint][ngc]") {
    const rules::Database edited =
        db_with("ngc_containers.json", "\"releases\": [",
                "\"releases\": [\n    {\"image\": \"tensorflow\", \"release\": \"99.01\", "
                "\"framework_version\": null, \"cuda\": \"12.2.2\", \"cudnn\": \"8.9.5\", "
                "\"ships\": {\"tensorrt\": null}, "
                "\"min_driver_branch\": null, \"datacenter_drivers\": [], \"ubuntu\": null, "
                "\"source\": \"ngc-pytorch-25.12\", \"note\": \"test row\"},");
    auto facts = facts_of("FROM nvcr.io/nvidia/tensorflow:99.01-tf2-py3\n");
    const auto stack = checks::lint::base_stack(facts.final_stage().base, edited);
    REQUIRE(stack.cuda);
    CHECK(stack.cuda->str() == "12.2.2");
    CHECK(stack.cudnn_major == 8);
    // An NGC release the table does not list stays unknown, never guessed.
    CHECK_FALSE(checks::lint::base_stack(facts.final_stage().base, db()).cuda);
    auto pytorch = facts_of("FROM nvcr.io/nvidia/pytorch:25.12-py3\n");
    const auto torch_stack = checks::lint::base_stack(pytorch.final_stage().base, db());
    REQUIRE(torch_stack.cuda);
    CHECK(torch_stack.cuda->major() == 13);

    // The TensorRT containers (nvcr.io/nvidia/tensorrt:22.04-py3) are read the same way.
    const std::string trt_row =
        "\"releases\": [\n    {\"image\": \"tensorrt\", \"release\": \"99.01\", "
        "\"framework_version\": \"10.0.1\", \"cuda\": \"12.4.1\", \"cudnn\": \"9.1.0\", "
        "\"ships\": {\"tensorrt\": \"10.0.1\"}, \"min_driver_branch\": null, "
        "\"datacenter_drivers\": [], "
        "\"ubuntu\": null, \"source\": \"ngc-pytorch-25.12\", \"note\": \"test row\"},";
    const auto trt = facts_of("FROM nvcr.io/nvidia/tensorrt:99.01-py3\n");
    const auto trt_stack = checks::lint::base_stack(
        trt.final_stage().base, db_with("ngc_containers.json", "\"releases\": [", trt_row));
    REQUIRE(trt_stack.cuda);
    CHECK(trt_stack.cuda->str() == "12.4.1");
    CHECK(trt_stack.cudnn_major == 9);
    CHECK(trt_stack.evidence == "NGC tensorrt 99.01 release notes");
    // A row known only from a copy of the notes says so, with the copy's address.
    std::string copied_row = trt_row;
    copied_row.replace(copied_row.find("\"note\""), 6, "\"confidence\": \"secondary\", \"note\"");
    const auto copied = checks::lint::base_stack(
        trt.final_stage().base, db_with("ngc_containers.json", "\"releases\": [", copied_row));
    CHECK_THAT(
        copied.evidence,
        Catch::StartsWith("NGC tensorrt 99.01 (a secondary source: https://docs.nvidia.com/"));
    // An image the table does not model is refused by the loader, not silently ignored.
    std::string nemo_row = trt_row;
    nemo_row.replace(nemo_row.find("tensorrt"), 8, "nemo");  // the image name
    CHECK_THROWS_WITH(db_with("ngc_containers.json", "\"releases\": [", nemo_row),
                      Catch::Contains("expected one of pytorch, tensorflow, jax, tritonserver, "
                                      "tensorrt"));
}

TEST_CASE("CUVL04 one finding per install command", "[lint][CUVL04]") {
    auto found = lint_ids(
        "FROM nvidia/cuda:12.3.2-runtime-ubuntu22.04\n"
        "RUN apt-get update && apt-get install -y libcudnn9-cuda-12 libcudnn9-dev-cuda-12\n",
        "CUVL04");
    REQUIRE(found.size() == 1);
    CHECK_THAT(found[0].message,
               Catch::Contains("libcudnn9-cuda-12") && Catch::Contains("libcudnn9-dev-cuda-12"));
}

TEST_CASE("CUVL07 stays quiet when a package needs the toolkit (rules needs_toolkit)",
          "[lint][CUVL07]") {
    for (const char* install : {"pip3 install pycuda==2024.1", "pip install deepspeed==0.15.1",
                                "pip install flash-attn==2.6.3 --no-deps"}) {
        INFO(install);
        CHECK(lint_ids(
                  std::string("FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nRUN ") + install + "\n",
                  "CUVL07")
                  .empty());
    }
    // The answer is the table's: without needs_toolkit, a devel base for pycuda is reported.
    const rules::Database edited =
        db_with("python_packages.json", "\"needs_toolkit\": true, \"source\": \"pycuda",
                "\"source\": \"pycuda");
    auto result = lint::lint_text(
        "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nRUN pip3 install pycuda==2024.1\n",
        "Dockerfile", edited);
    CHECK(std::any_of(result.findings.begin(), result.findings.end(),
                      [](const report::Finding& f) { return f.id == "CUVL07"; }));
}

TEST_CASE("CUVL01 system-library frameworks against the cuDNN apt adds", "[lint][CUVL01]") {
    auto found = lint_ids(
        "FROM nvidia/cuda:12.3.2-runtime-ubuntu22.04\n"
        "RUN apt-get install -y libcudnn9-cuda-12 python3-pip\n"
        "RUN pip3 install tensorflow==2.16.1\n",
        "CUVL01");
    REQUIRE(found.size() == 1);
    CHECK(found[0].severity == report::Severity::error);
    CHECK_THAT(found[0].message, Catch::Contains("libcudnn.so.8 is missing"));
    // The fix must not name another release built with the same cuDNN 8 (2.17).
    CHECK_THAT(found[0].fix, !Catch::Contains("2.17"));
    CHECK(lint_ids("FROM nvidia/cuda:12.3.2-runtime-ubuntu22.04\n"
                   "RUN apt-get install -y libcudnn8=8.9.7.29-1+cuda12.2\n"
                   "RUN pip3 install tensorflow==2.16.1\n",
                   "CUVL01")
              .empty());
    // tensorflow-gpu 1.15 on CUDA 11: the fix names the 2.x package `tensorflow`.
    found = lint_ids(
        "FROM nvidia/cuda:11.0.3-cudnn8-runtime-ubuntu18.04\nRUN pip3 install "
        "tensorflow-gpu==1.15.5\n",
        "CUVL01");
    REQUIRE(found.size() == 1);
    CHECK_THAT(found[0].fix, !Catch::Contains("tensorflow-gpu 2"));
}
