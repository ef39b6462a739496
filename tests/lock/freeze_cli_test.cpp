// `cuvet freeze`, `cuvet diff`, `validate --against` on the sample image and on
// images of real (gcc-built) CUDA stacks that differ in cuDNN (docs/freeze.md).
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cuvet/lock/lock.hpp"
#include "support/cuda_image.hpp"
#include "support/process.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"

using namespace cuvet;
using namespace cuvet::test;
namespace fs = std::filesystem;

namespace {

fs::path sample_image() { return fs::path(CUVET_BUILD_DIR) / "testdata" / "sample-image.tar"; }

// torch's wheel pins the cuDNN it was built with, as the real 2.1.0+cu121 does.
void dist_requires(CudaImage& img) {
    img.fs().write(
        site_packages + "/torch-2.1.0+cu121.dist-info/METADATA",
        "Metadata-Version: 2.1\nName: torch\nVersion: 2.1.0+cu121\n"
        "Requires-Dist: nvidia-cudnn-cu12 (==8.9.2.26) ; platform_system == \"Linux\"\n\n");
}

// torch 2.1.0+cu121 on CUDA 12.1 with the nvidia-cudnn-cu12 wheel at `cudnn`.
fs::path torch_image(CudaImage& img, const std::string& cudnn) {
    img.glibc();
    img.cuda_toolkit("12.1.105");
    img.cudnn_wheel(cudnn, 12);
    img.torch("2.1.0+cu121", "12.1",
              {site_packages + "/nvidia/cudnn/lib/libcudnn.so.8",
               "/usr/local/cuda-12.1/targets/x86_64-linux/lib/libcudart.so.12"});
    dist_requires(img);
    INFO(img.fs().error());
    REQUIRE(img.fs().error().empty());
    return img.write();
}

}  // namespace

TEST_CASE("freeze: the sample image's stack, byte-identical across runs, text and JSON",
          "[lock][cli]") {
    if (!fs::exists(sample_image())) {
        CUVET_SKIP("no sample image built");
    }
    const auto first = run_cuvet({"freeze", sample_image().string()});
    const auto second = run_cuvet({"freeze", sample_image().string(), "--no-cache"});
    INFO(first.err);
    REQUIRE(first.exit_code == 0);
    CHECK(first.out == second.out);
    const std::string& text = first.out;
    CHECK(text.find("lock-schema 1\n") != std::string::npos);
    CHECK(
        text.find("framework name=pytorch version=2.1.0 variant=cu121 cuda=12.1 cudnn=8.9.2.26") !=
        std::string::npos);
    // What torch really loads: the system cuDNN 8.6.0 through LD_LIBRARY_PATH (testdata/README.md).
    CHECK(text.find("library family=cudnn path=/usr/lib/x86_64-linux-gnu/libcudnn.so.8.6.0 "
                    "soname=libcudnn.so.8 "
                    "version=8.6.0 cuda-major=11 owner=\"dpkg libcudnn8 8.6.0.163-1+cuda11.8\" "
                    "loaded-by=\"imported by torch\"") != std::string::npos);
    CHECK(text.find("driver-floor version=525.60.13 full=530.30.02 cuda=12.1.105") !=
          std::string::npos);
    CHECK(text.find("runtime-start mode=nvidia driver=host-injected") != std::string::npos);
    const auto json = run_cuvet({"freeze", sample_image().string(), "--format", "json"});
    REQUIRE(json.exit_code == 0);
    CHECK(lock::to_text(lock::parse(json.out, "freeze.json")) == text);
    const auto none = run_cuvet({"freeze", sample_image().string(), "--runtime-start", "none"});
    CHECK(none.out.find("runtime-start mode=none driver=image") != std::string::npos);
}

TEST_CASE("diff: a lock against its own image has no change, exit 0", "[lock][cli]") {
    if (!fs::exists(sample_image())) {
        CUVET_SKIP("no sample image built");
    }
    TempDir dir;
    const auto lock_path = dir / "cuda-stack.lock";
    REQUIRE(run_cuvet({"freeze", sample_image().string(), "-o", lock_path.string()}).exit_code ==
            0);
    const auto same = run_cuvet({"diff", lock_path.string(), sample_image().string()});
    INFO(same.out << same.err);
    CHECK(same.exit_code == 0);
    CHECK(same.out.find("no change in the CUDA stack") != std::string::npos);
}

TEST_CASE("diff: two torch images that differ in cuDNN name torch as what breaks", "[lock][cli]") {
    CudaImage good_img, bad_img;
    const auto good = torch_image(good_img, "8.9.2.26");
    const auto bad = torch_image(bad_img, "8.6.0.163");
    const auto text = run_cuvet({"diff", good.string(), bad.string()});
    INFO(text.out << text.err);
    CHECK(text.exit_code == 1);
    CHECK(text.out.find("breaks (") != std::string::npos);
    CHECK(text.out.find("cudnn-refused  pytorch 2.1.0: cuDNN 8.9.2.26 → 8.6.0.163 under pytorch "
                        "2.1.0, which was built "
                        "with cuDNN 8.9.2.26 and refuses 8.6.0.163") != std::string::npos);
    const auto json = run_cuvet({"diff", good.string(), bad.string(), "--format", "json"});
    const auto doc = nlohmann::json::parse(json.out, nullptr, false);
    REQUIRE(doc.is_object());
    bool named = false;
    for (const auto& c : doc["changes"])
        named = named || (c["impact"] == "breaks" && c["kind"] == "cudnn-refused" &&
                          c["subject"] == "pytorch 2.1.0");
    CHECK(named);
    // Only breaking changes fail with --fail-on breaks; none pass with never.
    CHECK(run_cuvet({"diff", good.string(), bad.string(), "--fail-on", "never"}).exit_code == 0);
    // The other way round cuDNN goes up: nothing breaks.
    const auto up = run_cuvet({"diff", bad.string(), good.string(), "--fail-on", "breaks"});
    INFO(up.out);
    CHECK(up.exit_code == 0);
}

TEST_CASE("validate --against: drift from the lock is CUV018, compatible or exact",
          "[lock][cli][validate]") {
    CudaImage good_img, bad_img;
    const auto good = torch_image(good_img, "8.9.2.26");
    const auto bad = torch_image(bad_img, "8.6.0.163");
    TempDir dir;
    const auto lock_path = (dir / "cuda-stack.lock").string();
    REQUIRE(run_cuvet({"freeze", good.string(), "-o", lock_path}).exit_code == 0);
    auto ids = [](const ProcessResult& r) {
        std::multiset<std::string> out;
        const auto doc = nlohmann::json::parse(r.out, nullptr, false);
        if (doc.is_object())
            for (const auto& f : doc["findings"])
                out.insert(f["id"].get<std::string>() + " " + f["severity"].get<std::string>());
        return out;
    };
    const auto same =
        run_cuvet({"validate", good.string(), "--against", lock_path, "--format", "json"});
    INFO(same.out << same.err);
    CHECK(ids(same).count("CUV018 error") == 0);
    const auto drifted =
        run_cuvet({"validate", bad.string(), "--against", lock_path, "--format", "json"});
    INFO(drifted.out);
    CHECK(ids(drifted).count("CUV018 error") == 1);
    CHECK(drifted.exit_code == 1);
    CHECK(drifted.out.find("drifted from " + lock_path + " (breaks, cudnn-refused)") !=
          std::string::npos);
    // A harmless change (a stack variable set at deploy time) is drift only in exact mode.
    const std::vector<std::string> harmless = {
        "validate", good.string(), "--against", lock_path,
        "--format", "json",        "--env",     "CUDA_MODULE_LOADING=LAZY"};
    CHECK(ids(run_cuvet(harmless)).count("CUV018 error") == 0);
    auto exact = harmless;
    exact.insert(exact.end(), {"--against-mode", "exact"});
    CHECK(ids(run_cuvet(exact)).count("CUV018 error") == 1);
}

TEST_CASE("freeze, diff, validate --against: a bad lock file is one line and exit 3",
          "[lock][cli]") {
    TempDir dir;
    const auto bad = dir / "bad.lock";
    write_file(bad, "# cuvet stack lock\nlock-schema 1\nframework nme=torch\n");
    const auto r = run_cuvet({"diff", bad.string(), bad.string()});
    CHECK(r.exit_code == 3);
    CHECK(r.err ==
          "cuvet: error: " + bad.string() + ":3: framework record without its 'name' field\n");
    const auto v = run_cuvet({"validate", bad.string(), "--against", bad.string()});
    CHECK(v.exit_code == 3);
    CHECK(v.err.find(bad.string() + ":3:") != std::string::npos);
    const auto missing =
        run_cuvet({"validate", bad.string(), "--against", (dir / "none.lock").string()});
    CHECK(missing.exit_code == 3);
    CHECK(std::count(missing.err.begin(), missing.err.end(), '\n') == 1);
}

TEST_CASE("diff: a file that is neither a lock nor an image says what was expected, exit 3",
          "[lock][cli]") {
    TempDir dir;
    const auto notes = dir / "notes.txt";
    std::ofstream(notes) << "cuDNN 8.9 on CUDA 12.1, see the wiki\n";
    const auto empty = dir / "empty";
    std::ofstream(empty).flush();
    for (const auto& path : {notes, empty}) {
        INFO(path);
        // --no-progress is accepted as validate accepts it: the error is the file's, not a usage
        // error.
        const auto run = run_cuvet({"diff", path.string(), path.string(), "--no-progress"});
        CHECK(run.exit_code == 3);
        CHECK(run.err.find(path.string() + ": neither a cuvet lock file") != std::string::npos);
        CHECK(run.err.find("not a tar archive") == std::string::npos);
    }
    // An archive that is broken is still the image reader's to judge.
    std::string tar(1024, '\0');
    tar.replace(257, 5, "ustar");
    const auto broken_tar = dir / "broken.tar";
    std::ofstream(broken_tar, std::ios::binary) << tar;
    const auto broken = run_cuvet({"diff", broken_tar.string(), broken_tar.string()});
    INFO(broken.err);
    CHECK(broken.exit_code == 3);
    CHECK(broken.err.find("neither a cuvet lock file") == std::string::npos);
}

TEST_CASE("freeze and diff take --no-progress and --progress as validate does", "[lock][cli]") {
    if (!fs::exists(sample_image())) {
        CUVET_SKIP("no sample image built");
    }
    const auto quiet = run_cuvet({"freeze", sample_image().string(), "--no-progress"});
    INFO(quiet.err);
    REQUIRE(quiet.exit_code == 0);
    CHECK(quiet.err.empty());
    const auto shown = run_cuvet({"freeze", sample_image().string(), "--progress", "--no-cache"});
    REQUIRE(shown.exit_code == 0);
    CHECK(shown.out == quiet.out);
    CHECK(shown.err.find("reading " + sample_image().string()) != std::string::npos);
    const auto diff =
        run_cuvet({"diff", sample_image().string(), sample_image().string(), "--progress"});
    CHECK(diff.exit_code == 0);
    CHECK(diff.err.find("reading " + sample_image().string()) != std::string::npos);
}

TEST_CASE("freeze: the variables a framework reads are locked, by the catalog's env_prefixes",
          "[lock][cli][catalog-fields]") {
    CudaImage img;
    img.env = {"XLA_FLAGS=--xla_gpu_cuda_data_dir=/usr/local/cuda", "TORCH_CUDA_ARCH_LIST=9.0",
               "TRT_LIBPATH=/opt/tensorrt/lib", "TORCHVISION_HOME=/root", "HOME=/root"};
    const auto image = torch_image(img, "8.9.2.26");
    const auto lock = run_cuvet({"freeze", image.string()});
    INFO(lock.out << lock.err);
    REQUIRE(lock.exit_code == 0);
    CHECK(lock.out.find("env name=XLA_FLAGS ") != std::string::npos);
    CHECK(lock.out.find("env name=TORCH_CUDA_ARCH_LIST ") != std::string::npos);
    CHECK(lock.out.find("env name=TRT_LIBPATH ") != std::string::npos);
    // A name that merely starts like a framework's is not one of its variables.
    CHECK(lock.out.find("TORCHVISION_HOME") == std::string::npos);
    CHECK(lock.out.find("name=HOME") == std::string::npos);
}
