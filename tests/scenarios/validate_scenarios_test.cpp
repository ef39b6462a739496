// Each scenario is an image built here that reproduces one real failure; the
// real `cuvet validate` must name it (and nothing it must not).
#include <catch2/catch.hpp>

#include "scenarios/scenario_support.hpp"
#include "support/cuda_image.hpp"
#include "support/elf_fixtures.hpp"
#include "support/skip.hpp"

using namespace cuvet::test;

namespace {

const std::string sys = "/usr/lib/x86_64-linux-gnu";
const std::string cudart12 = "/usr/local/cuda-12.1/targets/x86_64-linux/lib/libcudart.so.12";

void require_ids(const CliReport& r, std::set<std::string> must, std::set<std::string> must_not) {
    INFO(dump(r));
    REQUIRE(r.json.is_object());
    for (const auto& id : must) CHECK(r.ids.count(id) >= 1);
    for (const auto& id : must_not) CHECK(r.ids.count(id) == 0);
}

}  // namespace

TEST_CASE("scenario: TensorFlow built against cuDNN 8.6 in an image holding 8.4",
          "[scenario][validate]") {
    CudaImage img;
    img.glibc();
    img.cuda_toolkit("11.8.89");
    img.cudnn(sys, "8.4.1", "8.4.1.50-1+cuda11.6");
    img.tensorflow("2.12.0", "11.8", "8", {"libcudnn.so.8", "libcudart.so.11.0"});
    img.env = {"PATH=/usr/bin:/bin", "CUDA_VERSION=11.8.0", "NV_CUDNN_VERSION=8.4.1.50"};
    REQUIRE(img.fs().error().empty());
    auto r = validate_cli(img.write().string());
    require_ids(r, {"CUV004"}, {"CUV001", "CUV002", "CUV003", "CUV005", "CUV006", "CUV014"});
    CHECK(r.exit_code == 1);
}

TEST_CASE("scenario: libcudnn.so.8 missing", "[scenario][validate]") {
    CudaImage img;
    img.glibc();
    img.cuda_toolkit("12.1.105");
    img.fs().lib("/opt/stage/libcudnn.so.8", "libcudnn.so.8");
    img.torch("2.1.0+cu121", "12.1", {"/opt/stage/libcudnn.so.8", cudart12});
    std::filesystem::remove_all(img.fs().host("/opt/stage"));
    REQUIRE(img.fs().error().empty());
    auto r = validate_cli(img.write().string());
    require_ids(r, {"CUV001"}, {"CUV002", "CUV003", "CUV004", "CUV006", "CUV007"});
    CHECK(r.exit_code == 1);
    CHECK(validate_cli(img.write().string(), {"--fail-on", "never"}).exit_code == 0);
}

TEST_CASE("scenario: a wheel library torch never loads misses its dependencies",
          "[scenario][validate]") {
    // As in the cu13 wheels: libcusolverMg (no RUNPATH) needs libcublas, which
    // sits in another wheel's directory; an optional transport needs a
    // library the image lacks. torch itself loads fine.
    CudaImage img;
    img.glibc();
    img.cuda_toolkit("12.1.105");
    const std::string wheels = site_packages + "/nvidia";
    img.fs().lib(wheels + "/cublas/lib/libcublas.so.12", "libcublas.so.12");
    img.fs().lib("/opt/stage/libfabric.so.1", "libfabric.so.1");
    img.fs().lib(wheels + "/cusolver/lib/libcusolverMg.so.11", "libcusolverMg.so.11",
                 {wheels + "/cublas/lib/libcublas.so.12"});
    img.fs().lib(wheels + "/nvshmem/lib/nvshmem_transport_libfabric.so.3",
                 "nvshmem_transport_libfabric.so.3",
                 {"/opt/stage/libfabric.so.1", wheels + "/cublas/lib/libcublas.so.12"});
    std::filesystem::remove_all(img.fs().host("/opt/stage"));
    img.torch("2.1.0+cu121", "12.1", {cudart12});
    REQUIRE(img.fs().error().empty());
    auto r = validate_cli(img.write().string());
    INFO(dump(r));
    require_ids(r, {"CUV001"}, {});
    CHECK(r.exit_code == 0);  // info only: the default --fail-on error passes
    bool named_the_copy = false;
    for (const auto& f : r.json["findings"]) {
        if (f["id"] != "CUV001") continue;
        CHECK(f["severity"] == "info");
        const auto message = f["message"].get<std::string>();
        CHECK(message.find("nothing in the image loads it") != std::string::npos);
        if (message.find("libcublas.so.12") != std::string::npos)
            named_the_copy = message.find("the image has it at " + wheels +
                                          "/cublas/lib/libcublas.so.12") != std::string::npos;
    }
    CHECK(named_the_copy);
}

TEST_CASE("scenario: a system cuDNN on LD_LIBRARY_PATH shadows torch's pip cuDNN",
          "[scenario][validate]") {
    CudaImage img;
    img.glibc();
    img.cuda_toolkit("12.1.105");
    img.cudnn(sys, "8.9.7", "8.9.7.29-1+cuda12.2");
    img.cudnn_wheel("8.9.2.26", 12);
    img.torch("2.1.0+cu121", "12.1", {site_packages + "/nvidia/cudnn/lib/libcudnn.so.8", cudart12});
    img.env.push_back("LD_LIBRARY_PATH=/usr/local/cuda/lib64:" + sys);
    REQUIRE(img.fs().error().empty());
    auto r = validate_cli(img.write().string());
    require_ids(r, {"CUV002", "CUV003"}, {"CUV001", "CUV005", "CUV006"});
}

TEST_CASE("scenario: --env LD_LIBRARY_PATH set at deployment shadows torch's pip cuDNN",
          "[scenario][validate]") {
    CudaImage img;
    img.glibc();
    img.cuda_toolkit("12.1.105");
    img.cudnn(sys, "8.9.7", "8.9.7.29-1+cuda12.2");
    img.cudnn_wheel("8.9.2.26", 12);
    img.torch("2.1.0+cu121", "12.1", {site_packages + "/nvidia/cudnn/lib/libcudnn.so.8", cudart12});
    REQUIRE(img.fs().error().empty());
    const auto image = img.write().string();
    require_ids(validate_cli(image), {}, {"CUV002"});
    require_ids(validate_cli(image, {"--env", "LD_LIBRARY_PATH=/usr/local/cuda/lib64:" + sys}),
                {"CUV002"}, {"CUV001"});
    auto bad = validate_cli(image, {"--env", "LD_LIBRARY_PATH"});
    CHECK(bad.exit_code == 2);
    CHECK(bad.err.find("expected KEY=VALUE") != std::string::npos);
}

TEST_CASE("scenario: torch's wheel pins a newer cuDNN than the one that loads",
          "[scenario][validate]") {
    // As on the H100 machine with the pip cuDNN removed: torch 2.11.0+cu130
    // pins nvidia-cudnn-cu13==9.19.0.56 (the rules know no cuDNN for that
    // build); only the dpkg 9.14 is left, which torch refuses.
    for (bool older : {true, false}) {
        INFO((older ? "9.14 loads" : "9.19 loads"));
        CudaImage img;
        img.glibc();
        img.cuda_toolkit("13.0.48");
        img.cudnn(sys, older ? "9.14.0" : "9.19.0", older ? "9.14.0.64-1" : "9.19.0.56-1");
        img.torch("2.11.0+cu130", "13.0", {sys + "/libcudnn.so.9"});
        img.fs().write(
            site_packages + "/torch-2.11.0+cu130.dist-info/METADATA",
            "Metadata-Version: 2.1\nName: torch\nVersion: 2.11.0+cu130\n"
            "Requires-Dist: filelock\n"
            "Requires-Dist: nvidia-cudnn-cu13==9.19.0.56; platform_system == \"Linux\"\n\n");
        REQUIRE(img.fs().error().empty());
        auto r = validate_cli(img.write().string());
        if (!older) {
            require_ids(r, {}, {"CUV004"});
            continue;
        }
        require_ids(r, {"CUV004"}, {});
        for (const auto& f : r.json["findings"])
            if (f["id"] == "CUV004")
                // torch prints version tuples (the real torch 2.11 on the H100 did:
                // run5/smoke.jsonl).
                CHECK(f["message"].get<std::string>().find(
                          "compiled  against (9, 19, 0) but found runtime version (9, 14, 0)") !=
                      std::string::npos);
    }
}

TEST_CASE("scenario: cuDNN for CUDA 11 next to the CUDA 12 runtime", "[scenario][validate]") {
    CudaImage img;
    img.glibc();
    img.cuda_toolkit("12.1.105");
    img.cudnn(sys, "8.9.2", "8.9.2.26-1+cuda11.8");
    img.torch("2.1.0+cu121", "12.1", {sys + "/libcudnn.so.8", cudart12});
    REQUIRE(img.fs().error().empty());
    auto r = validate_cli(img.write().string());
    require_ids(r, {"CUV006"}, {"CUV001", "CUV002", "CUV003", "CUV004", "CUV005"});
}

TEST_CASE("scenario: the image needs a newer driver than the fleet's", "[scenario][validate]") {
    CudaImage img;
    img.glibc();
    img.cuda_toolkit("12.4.1");
    REQUIRE(img.fs().error().empty());
    auto image = img.write().string();
    auto r = validate_cli(image, {"--driver", "470.223.02", "--driver", "550.54.15"});
    require_ids(r, {"CUV009"}, {});
    CHECK(r.ids.size() == 1);
    auto ok = validate_cli(image, {"--driver", "550.54.15"});
    require_ids(ok, {}, {"CUV009"});
    CHECK(ok.exit_code == 0);
}

TEST_CASE("scenario: a framework without SASS or PTX for the target GPU", "[scenario][validate]") {
    const auto& fixtures = elf_fixtures();
    if (fixtures.cuda.empty()) {
        CUVET_SKIP("skipped: no nvcc");
    }
    CudaImage img;
    img.glibc();
    std::filesystem::create_directories(img.fs().host(site_packages + "/torch/lib"));
    std::filesystem::copy_file(fixtures.cuda,
                               img.fs().host(site_packages + "/torch/lib/libkern.so"));
    REQUIRE(img.fs().error().empty());
    auto image = img.write().string();
    require_ids(validate_cli(image, {"--gpu", "T4"}), {"CUV010"}, {});
    require_ids(validate_cli(image, {"--gpu", "H100", "--gpu", "8.6"}), {}, {"CUV010"});
}

TEST_CASE("scenario: a CUDA 13 image on a fleet with V100s", "[scenario][validate]") {
    CudaImage img;
    img.glibc();
    img.cuda_toolkit("13.0.48");
    REQUIRE(img.fs().error().empty());
    const auto image = img.write().string();
    auto r = validate_cli(image, {"--gpu", "V100", "--gpu", "H100"});
    require_ids(r, {"CUV010"}, {});
    CHECK(r.ids.count("CUV010") == 1);
    for (const auto& f : r.json["findings"]) {
        const auto message = f["message"].get<std::string>();
        CHECK(message.find("CUDA 13.0.48 no longer supports V100") != std::string::npos);
        CHECK(message.find("12.9") != std::string::npos);
    }
    require_ids(validate_cli(image, {"--gpu", "H100"}), {}, {"CUV010"});
}

TEST_CASE("scenario: NVIDIA's own libraries are not judged by their fatbins",
          "[scenario][validate]") {
    // libcufftw of CUDA 13 carries one sm_75 stub in .nv_fatbin; the same
    // bytes under a framework's name are judged (previous scenario).
    const auto& fixtures = elf_fixtures();
    if (fixtures.cuda.empty()) {
        CUVET_SKIP("skipped: no nvcc");
    }
    CudaImage img;
    img.glibc();
    img.cuda_toolkit("12.1.105");
    const std::string lib = "/usr/local/cuda-12.1/targets/x86_64-linux/lib/libcufftw.so.11.0.2";
    std::filesystem::copy_file(fixtures.cuda, img.fs().host(lib));
    REQUIRE(img.fs().error().empty());
    require_ids(validate_cli(img.write().string(), {"--gpu", "T4"}), {}, {"CUV010"});
}

TEST_CASE("scenario: LD_LIBRARY_PATH makes the pip cuDNN load the system's sub-libraries",
          "[scenario][validate]") {
    // As on the H100 machine: the wheel's libcudnn.so finds its sub-libraries
    // through RUNPATH $ORIGIN, but LD_LIBRARY_PATH comes first.
    CudaImage img;
    img.glibc();
    img.cuda_toolkit("12.1.105");
    img.cudnn(sys, "8.9.7", "8.9.7.29-1+cuda12.2");
    const std::string wheel = site_packages + "/nvidia/cudnn/lib";
    img.fs().lib(wheel + "/libcudnn_ops_infer.so.8", "libcudnn_ops_infer.so.8");
    img.fs().lib_source(wheel + "/libcudnn.so.8", "libcudnn.so.8",
                        "const char *sub_libraries[] = {\"libcudnn_ops_infer.so.8\"};\nint "
                        "cudnnCreate(void) { return 0; }\n",
                        {}, "-Wl,--enable-new-dtags,-rpath,'$ORIGIN'");
    // A sub-library that needs another one (as libcudnn_adv.so.9 needs libcudnn_graph.so.9).
    img.fs().lib(wheel + "/libcudnn_cnn_infer.so.8", "libcudnn_cnn_infer.so.8",
                 {wheel + "/libcudnn_ops_infer.so.8"}, "-Wl,--enable-new-dtags,-rpath,'$ORIGIN'");
    img.fs().write(site_packages + "/nvidia_cudnn_cu12-8.9.2.26.dist-info/METADATA",
                   "Metadata-Version: 2.1\nName: nvidia-cudnn-cu12\nVersion: 8.9.2.26\n\n");
    img.torch("2.1.0+cu121", "12.1", {wheel + "/libcudnn.so.8", cudart12});
    // torch's libraries carry DT_RPATH (readelf on the H100: torch 2.11), which LD_LIBRARY_PATH
    // does not beat.
    img.fs().lib(site_packages + "/torch/lib/libtorch_cuda.so", "libtorch_cuda.so",
                 {wheel + "/libcudnn.so.8", cudart12},
                 "-Wl,--disable-new-dtags,-rpath,'$ORIGIN/../../nvidia/cudnn/lib'");
    REQUIRE(img.fs().error().empty());
    const auto image = img.write().string();
    require_ids(validate_cli(image), {}, {"CUV005"});
    auto r = validate_cli(image, {"--env", "LD_LIBRARY_PATH=" + sys});
    require_ids(r, {"CUV005"}, {});
    for (const auto& f : r.json["findings"])
        if (f["id"] == "CUV005")
            CHECK(f["message"].get<std::string>().find(
                      "cuDNN 8.9.2 in " + wheel + " loads parts of cuDNN 8.9.7 from " + sys +
                      " at run time: libcudnn.so.8 -> " + sys +
                      "/libcudnn_ops_infer.so.8.9.7 (via ld-library-path)") != std::string::npos);
    for (const auto& f : r.json["findings"])
        if (f["id"] == "CUV005")
            CHECK(f["message"].get<std::string>().find("libcudnn_cnn_infer.so.8 -> " + sys +
                                                       "/libcudnn_ops_infer.so.8.9.7") !=
                  std::string::npos);
}

TEST_CASE("scenario: cuDNN sub-libraries of different releases", "[scenario][validate]") {
    CudaImage img;
    img.glibc();
    img.cuda_toolkit("12.1.105");
    img.cudnn(sys, "8.9.7", "", "8.6.0");
    img.torch("2.1.0+cu121", "12.1", {sys + "/libcudnn.so.8", cudart12});
    REQUIRE(img.fs().error().empty());
    require_ids(validate_cli(img.write().string()), {"CUV005"}, {"CUV001", "CUV003", "CUV004"});
}

TEST_CASE("scenario: a framework library calls a cuDNN entry point the image's cuDNN lacks",
          "[scenario][validate]") {
    // Built against a cuDNN that has cudnnGetLibConfig; the image holds one without it.
    const std::string newer =
        "int cudnnCreate(void) { return 0; }\nint cudnnGetLibConfig(void) { return 0; }\n";
    const std::string older = "int cudnnCreate(void) { return 0; }\n";
    const std::string consumer =
        "int cudnnCreate(void); int cudnnGetLibConfig(void);\n"
        "__attribute__((weak)) int cudnnOptionalEntry(void);\n"  // weak: may stay unresolved
        "int run(void) { return cudnnCreate() + cudnnGetLibConfig() + (cudnnOptionalEntry ? "
        "cudnnOptionalEntry() : 0); }\n";
    const std::string torch_lib = site_packages + "/torch/lib/libtorch_cuda.so";
    for (bool broken : {true, false}) {
        INFO((broken ? "older cuDNN" : "matching cuDNN"));
        CudaImage img;
        img.glibc();
        img.fs().lib_source("/opt/stage/libcudnn.so.9", "libcudnn.so.9", newer);
        img.fs().lib_source(torch_lib, "libtorch_cuda.so", consumer, {"/opt/stage/libcudnn.so.9"});
        std::filesystem::remove_all(img.fs().host("/opt/stage"));
        img.fs().lib_source(sys + "/libcudnn.so.9", "libcudnn.so.9", broken ? older : newer);
        // What the image runs maps the library: a library nothing loads never fails the build.
        img.fs().exe("/usr/bin/serve", {torch_lib}, "-Wl,-rpath," + site_packages + "/torch/lib");
        img.entrypoint = {"/usr/bin/serve"};
        REQUIRE(img.fs().error().empty());
        auto r = validate_cli(img.write().string());
        if (!broken) {
            require_ids(r, {}, {"CUV008", "CUV001"});
            continue;
        }
        require_ids(r, {"CUV008"}, {"CUV001"});
        for (const auto& f : r.json["findings"]) {
            if (f["id"] != "CUV008") continue;
            const auto message = f["message"].get<std::string>();
            CHECK(message.find("cudnnGetLibConfig") != std::string::npos);
            CHECK(message.find(sys + "/libcudnn.so.9") != std::string::npos);
            CHECK(message.find("cudnnCreate") == std::string::npos);
            CHECK(message.find("cudnnOptionalEntry") == std::string::npos);
        }
    }
}

TEST_CASE("scenario: a clean torch image produces no findings at all", "[scenario][validate]") {
    CudaImage img;
    img.glibc();
    img.cuda_toolkit("12.1.105");
    img.cudnn_wheel("8.9.2.26", 12);
    img.torch("2.1.0+cu121", "12.1", {site_packages + "/nvidia/cudnn/lib/libcudnn.so.8", cudart12});
    img.env.push_back("CUDA_VERSION=12.1.105");
    img.env.push_back("NVIDIA_REQUIRE_CUDA=cuda>=12.1");
    REQUIRE(img.fs().error().empty());
    auto r = validate_cli(img.write().string(),
                          {"--driver", "535.104.05", "--gpu", "H100", "--fail-on", "info"});
    INFO(dump(r));
    CHECK(r.ids.empty());
    CHECK(r.exit_code == 0);
    for (const char* format : {"sarif", "junit", "text"}) {
        auto out = run_cuvet({"validate", img.write().string(), "--format", format});
        CHECK(out.exit_code == 0);
    }
}

TEST_CASE("validate: usage and input errors have their exit codes", "[scenario][validate]") {
    CHECK(run_cuvet({"validate", "/nonexistent/image.tar"}).exit_code == 3);
    CHECK(run_cuvet({"validate", "/nonexistent/image.tar", "--format", "yaml"}).exit_code == 2);
    CudaImage img;
    auto image = img.write().string();
    CHECK(run_cuvet({"validate", image, "--gpu", "NoSuchGPU"}).exit_code == 2);
    CHECK(run_cuvet({"validate", image, "--driver", "abc"}).exit_code == 2);
    CHECK(run_cuvet({"validate", image, "--fail-on", "sometimes"}).exit_code == 2);
    // -f, as every other command spells it.
    auto json = run_cuvet({"validate", image, "-f", "json"});
    CHECK(json.exit_code == 0);
    CHECK_FALSE(nlohmann::json::parse(json.out, nullptr, false).is_discarded());
}
