// `cuvet ldd` end to end on images built here: a rootfs with a torch-wheel
// layout, and a docker archive whose Env puts the CUDA driver stub first.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "support/image_writer.hpp"
#include "support/process.hpp"
#include "support/rootfs_builder.hpp"
#include "support/skip.hpp"

namespace {

using namespace cuvet;

const nlohmann::json* resolution(const nlohmann::json& out, const std::string& name) {
    for (const auto& r : out["resolutions"])
        if (r["name"] == name) return &r;
    return nullptr;
}

}  // namespace

TEST_CASE("cuvet ldd: tree, rules, shadowed copies, JSON, exit codes", "[loader][cli]") {
    if (!test::have_program("gcc")) {
        CUVET_SKIP("skipped: no gcc");
    }
    test::Rootfs root;
    REQUIRE(root.add_host_glibc());
    const std::string site = "/opt/venv/lib/python3.11/site-packages";
    root.lib(site + "/nvidia/cudnn/lib/libcudnn.so.9", "libcudnn.so.9");
    root.lib("/usr/lib/x86_64-linux-gnu/libcudnn.so.9", "libcudnn.so.9");
    root.lib(site + "/torch/lib/libtorch_cuda.so", "libtorch_cuda.so",
             {site + "/nvidia/cudnn/lib/libcudnn.so.9"},
             "-Wl,--enable-new-dtags -Wl,-rpath,'$ORIGIN/../../nvidia/cudnn/lib'");
    root.lib("/opt/gone/libgone.so", "libgone.so");
    root.exe("/app/main", {site + "/torch/lib/libtorch_cuda.so"},
             "-Wl,-rpath," + site + "/torch/lib");
    root.exe("/app/broken", {"/opt/gone/libgone.so"});
    std::filesystem::remove(root.host("/opt/gone/libgone.so"));
    REQUIRE(root.error().empty());
    auto image = root.root().string();

    auto text = test::run_cuvet({"ldd", image, "/app/main"});
    INFO(text.out << text.err);
    CHECK(text.exit_code == 0);
    CHECK(text.out.find("libtorch_cuda.so => " + site +
                        "/torch/lib/libtorch_cuda.so  [runpath of /app/main]") !=
          std::string::npos);
    CHECK(text.out.find("libcudnn.so.9 => " + site +
                        "/torch/lib/../../nvidia/cudnn/lib/libcudnn.so.9") != std::string::npos);
    CHECK(text.out.find("shadows /lib/x86_64-linux-gnu/libcudnn.so.9") != std::string::npos);

    auto json_run = test::run_cuvet({"ldd", image, "/app/main", "--format", "json"});
    REQUIRE(json_run.exit_code == 0);
    auto out = nlohmann::json::parse(json_run.out);
    CHECK(out["schema_version"] == 1);
    CHECK(out["ok"] == true);
    const auto* cudnn = resolution(out, "libcudnn.so.9");
    REQUIRE(cudnn != nullptr);
    CHECK((*cudnn)["rule"] == "runpath");
    CHECK((*cudnn)["requester"] == site + "/torch/lib/libtorch_cuda.so");
    CHECK((*cudnn)["file"] == site + "/nvidia/cudnn/lib/libcudnn.so.9");
    CHECK((*cudnn)["trace"].back()["verdict"] == "loaded");

    auto broken = test::run_cuvet({"ldd", image, "/app/broken"});
    CHECK(broken.exit_code == 1);
    CHECK(broken.out.find("libgone.so => not found") != std::string::npos);

    auto missing = test::run_cuvet({"ldd", image, "/app/nothere"});
    CHECK(missing.exit_code == 3);
    CHECK(missing.err.find("/app/nothere") != std::string::npos);
}

TEST_CASE("cuvet ldd: driver libraries come from the host unless the Env shadows them",
          "[loader][cli]") {
    if (!test::have_program("gcc")) {
        CUVET_SKIP("skipped: no gcc");
    }
    // Libraries compiled here, packed into a docker archive with an Env.
    test::Rootfs build;
    build.lib("/stubs/libcuda.so", "libcuda.so.1");
    build.lib("/lib/libapp.so", "libapp.so");
    build.exe("/bin/app", {"/stubs/libcuda.so"}, "-Wl,-rpath,/opt/app/lib");
    REQUIRE(build.error().empty());
    auto bytes = [&](const std::string& p) { return test::read_file(build.host(p)); };
    test::Layer layer;
    layer.entries = {
        test::dir("opt/"),
        test::dir("opt/app/"),
        test::dir("opt/app/bin/"),
        test::file("opt/app/bin/app", bytes("/bin/app"), 0755),
        test::dir("usr/"),
        test::dir("usr/local/"),
        test::dir("usr/local/cuda/"),
        test::dir("usr/local/cuda/lib64/"),
        test::dir("usr/local/cuda/lib64/stubs/"),
        test::file("usr/local/cuda/lib64/stubs/libcuda.so", bytes("/stubs/libcuda.so")),
        test::dir("usr/lib/"),
        test::dir("usr/lib/x86_64-linux-gnu/"),
        test::file("usr/lib/x86_64-linux-gnu/libcuda.so.1", bytes("/stubs/libcuda.so")),
        test::file("usr/lib/x86_64-linux-gnu/libc.so.6",
                   test::read_file(std::filesystem::canonical("/lib/x86_64-linux-gnu/libc.so.6"))),
        test::soft_link("lib", "usr/lib")};
    test::TempDir tmp;
    for (bool stub_on_path : {false, true}) {
        test::ImageSpec spec;
        spec.layers = {layer};
        if (stub_on_path) {
            spec.layers[0].entries.push_back(
                test::soft_link("usr/local/cuda/lib64/stubs/libcuda.so.1", "libcuda.so"));
            spec.env.push_back("LD_LIBRARY_PATH=/usr/local/cuda/lib64/stubs");
        }
        auto tar = tmp / (stub_on_path ? "stub.tar" : "plain.tar");
        test::docker_archive({spec}).write_tar(tar);
        auto run = test::run_cuvet({"ldd", tar.string(), "/opt/app/bin/app", "--format", "json"});
        INFO(run.out << run.err);
        REQUIRE(run.exit_code == 0);
        const auto out = nlohmann::json::parse(run.out);
        const auto* cuda = resolution(out, "libcuda.so.1");
        REQUIRE(cuda != nullptr);
        if (stub_on_path) {
            CHECK((*cuda)["status"] == "found");
            CHECK((*cuda)["rule"] == "ld-library-path");
            CHECK((*cuda)["image_copy"] == "/usr/local/cuda/lib64/stubs/libcuda.so.1");
        } else {
            CHECK((*cuda)["status"] == "host-driver");
            CHECK((*cuda)["image_copy"] == "/lib/x86_64-linux-gnu/libcuda.so.1");
        }
    }
}
