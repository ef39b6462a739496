// The inventory of images in the three layouts users have — pip wheels,
// apt packages, conda — built at test time with real compiled libraries,
// and of the real CUDA install of the build machine when there is one.
#include <catch2/catch.hpp>
#include <filesystem>

#include "cuvet/image/image.hpp"
#include "cuvet/inventory/analysis.hpp"
#include "cuvet/loader/loader.hpp"
#include "support/image_writer.hpp"
#include "support/inventory_queries.hpp"
#include "support/process.hpp"
#include "support/rootfs_builder.hpp"
#include "support/skip.hpp"

namespace {

using namespace cuvet;
namespace fs = std::filesystem;
using test::analyze_dir;
using test::component;
using test::describe;

bool has_evidence(const inventory::Component& c, const std::string& kind) {
    for (const auto& e : c.evidence)
        if (e.kind == kind) return true;
    return false;
}

const std::string site = "/usr/local/lib/python3.10/dist-packages";

}  // namespace

TEST_CASE("inventory: pip layout beside a system cuDNN", "[inventory]") {
    if (!test::have_program("gcc")) {
        CUVET_SKIP("skipped: no gcc");
    }
    test::Rootfs root;
    REQUIRE(root.add_host_glibc());
    // The wheel: nvidia-cudnn-cu12 with its lib and header, torch linking it
    // through an $ORIGIN RPATH as the torch wheels do.
    root.lib(site + "/nvidia/cudnn/lib/libcudnn.so.9", "libcudnn.so.9");
    root.write(site + "/nvidia/cudnn/include/cudnn_version.h",
               "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n");
    root.write(site + "/nvidia_cudnn_cu12-9.1.0.70.dist-info/METADATA",
               "Metadata-Version: 2.1\nName: nvidia-cudnn-cu12\nVersion: 9.1.0.70\n\nbody\n");
    root.lib(site + "/nvidia/cublas/lib/libcublas.so.12", "libcublas.so.12");
    root.write(site + "/nvidia_cublas_cu12-12.4.5.8.dist-info/METADATA",
               "Name: nvidia-cublas-cu12\nVersion: 12.4.5.8\n");
    root.lib(
        site + "/torch/lib/libtorch_cuda.so", "libtorch_cuda.so",
        {site + "/nvidia/cudnn/lib/libcudnn.so.9", site + "/nvidia/cublas/lib/libcublas.so.12"},
        "-Wl,--disable-new-dtags "
        "-Wl,-rpath,'$ORIGIN/../../nvidia/cublas/lib:$ORIGIN/../../nvidia/cudnn/lib'");
    root.write(site + "/torch/version.py",
               "from typing import Optional\n__version__ = '2.4.0+cu124'\ndebug = False\n"
               "cuda: Optional[str] = '12.4'\ngit_version = 'abc'\nhip: Optional[str] = None\n");
    root.write(site + "/torch-2.4.0+cu124.dist-info/METADATA",
               "Name: torch\nVersion: 2.4.0+cu124\n");
    // A system cuDNN 9 of another version: the loader must pick the wheel's.
    root.lib("/usr/lib/x86_64-linux-gnu/libcudnn.so.9.0.0", "libcudnn.so.9");
    root.symlink("/usr/lib/x86_64-linux-gnu/libcudnn.so.9", "libcudnn.so.9.0.0");
    root.write(
        "/var/lib/dpkg/status",
        "Package: libcudnn9-cuda-12\nStatus: install ok installed\nVersion: 9.0.0.312-1\n\n"
        "Package: libc6\nStatus: install ok installed\nVersion: 2.36-9+deb12u4\n\n"
        "Package: libcudnn8\nStatus: deinstall ok config-files\nVersion: 8.9.7.29-1+cuda12.2\n");
    root.write("/etc/os-release",
               "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nID=debian\nVERSION_ID=\"12\"\n");
    REQUIRE(root.error().empty());

    auto analysis = analyze_dir(root.root());
    const auto& inv = analysis.inventory;
    INFO(describe(inv));
    CHECK(inv.distro.id == "debian");
    CHECK(inv.distro.version_id == "12");

    const auto* pip = component(inv, "cudnn", site + "/nvidia/cudnn");
    REQUIRE(pip != nullptr);
    CHECK(pip->version == "9.1.0.70");
    CHECK(pip->source == "pip");
    CHECK(pip->versions_agree);
    CHECK(has_evidence(*pip, "dist-info"));
    CHECK(has_evidence(*pip, "header"));
    CHECK(has_evidence(*pip, "file-name"));
    CHECK(pip->files == std::vector<std::string>{site + "/nvidia/cudnn/lib/libcudnn.so.9"});

    const auto* system = component(inv, "cudnn", "/usr");
    REQUIRE(system != nullptr);
    CHECK(system->version == "9.0.0.312");
    CHECK(system->source == "dpkg");
    CHECK(inv.find("cudnn").size() == 2);

    const auto* torch = component(inv, "torch", site + "/torch");
    REQUIRE(torch != nullptr);
    CHECK(torch->version == "2.4.0+cu124");
    CHECK(torch->attributes.at("cuda") == "12.4");
    CHECK(torch->attributes.count("hip") == 0);

    const auto* cublas = component(inv, "cublas", site + "/nvidia/cublas");
    REQUIRE(cublas != nullptr);
    CHECK(cublas->version == "12.4.5.8");

    const auto* glibc = component(inv, "glibc", "/usr");
    REQUIRE(glibc != nullptr);
    CHECK(glibc->version.rfind("2.", 0) == 0);
    CHECK(has_evidence(*glibc, "dpkg"));
    CHECK(has_evidence(*glibc, "elf-verdef"));
    // libcudnn8 only left config files behind: not installed.
    for (const auto* c : inv.find("cudnn")) CHECK(c->version.rfind("8.", 0) != 0);

    // What torch really loads: the wheel's cuDNN, shadowing the system one.
    loader::Loader ld(analysis.files(), {});
    auto graph = ld.resolve(site + "/torch/lib/libtorch_cuda.so");
    bool checked = false;
    for (const auto& r : graph.resolutions) {
        if (r.name != "libcudnn.so.9") continue;
        checked = true;
        CHECK(r.rule == loader::Rule::rpath);
        CHECK(r.file == site + "/nvidia/cudnn/lib/libcudnn.so.9");
        CHECK(r.shadowed == std::vector<std::string>{"/lib/x86_64-linux-gnu/libcudnn.so.9"});
    }
    CHECK(checked);
}

TEST_CASE("inventory: apt layout with a CUDA toolkit dir", "[inventory]") {
    if (!test::have_program("gcc")) {
        CUVET_SKIP("skipped: no gcc");
    }
    test::Rootfs root;
    REQUIRE(root.add_host_glibc());
    const std::string lib = "/usr/lib/x86_64-linux-gnu";
    root.lib(lib + "/libcudnn.so.8.9.7", "libcudnn.so.8");
    root.symlink(lib + "/libcudnn.so.8", "libcudnn.so.8.9.7");
    root.lib(lib + "/libnccl.so.2.21.5", "libnccl.so.2");
    root.write("/usr/include/x86_64-linux-gnu/cudnn_version_v8.h",
               "#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 9\n#define CUDNN_PATCHLEVEL 7\n");
    root.symlink("/usr/include/cudnn_version.h",
                 "/usr/include/x86_64-linux-gnu/cudnn_version_v8.h");
    const std::string cuda = "/usr/local/cuda-12.2";
    root.lib(cuda + "/targets/x86_64-linux/lib/libcudart.so.12.2.140", "libcudart.so.12");
    root.symlink(cuda + "/lib64", "targets/x86_64-linux/lib");
    root.symlink("/usr/local/cuda", "cuda-12.2");
    root.write(cuda + "/version.json",
               R"J({"cuda": {"name": "CUDA SDK", "version": "12.2.2"},
                   "cuda_cudart": {"name": "CUDA Runtime (cudart)", "version": "12.2.140"},
                   "libcublas": {"name": "CUDA cuBLAS", "version": "12.2.5.6"}})J");
    root.write("/var/lib/dpkg/status",
               "Package: libcudnn8\nStatus: install ok installed\nVersion: 8.9.7.29-1+cuda12.2\n\n"
               "Package: libnccl2\nStatus: install ok installed\nVersion: 2.21.5-1+cuda12.4\n\n"
               "Package: cuda-cudart-12-2\nStatus: install ok installed\nVersion: 12.2.140-1\n");
    root.write("/etc/os-release",
               "ID=ubuntu\nVERSION_ID=\"22.04\"\nPRETTY_NAME=\"Ubuntu 22.04.4 LTS\"\n");
    REQUIRE(root.error().empty());

    auto analysis = analyze_dir(root.root());
    const auto& inv = analysis.inventory;
    INFO(describe(inv));
    const auto* cudnn = component(inv, "cudnn", "/usr");
    REQUIRE(cudnn != nullptr);
    CHECK(cudnn->version == "8.9.7.29");
    CHECK(cudnn->source == "dpkg");
    CHECK(has_evidence(*cudnn, "header"));
    CHECK(has_evidence(*cudnn, "file-name"));
    CHECK(cudnn->versions_agree);

    const auto* nccl = component(inv, "nccl", "/usr");
    REQUIRE(nccl != nullptr);
    CHECK(nccl->version == "2.21.5");

    const auto* cudart = component(inv, "cudart", cuda);
    REQUIRE(cudart != nullptr);
    CHECK(cudart->version == "12.2.140");
    CHECK(has_evidence(*cudart, "version.json"));
    CHECK(has_evidence(*cudart, "dpkg"));
    const auto* toolkit = component(inv, "cuda-toolkit", cuda);
    REQUIRE(toolkit != nullptr);
    CHECK(toolkit->version == "12.2.2");
    // version.json lists cuBLAS, but no cuBLAS is installed.
    CHECK(inv.find("cublas").empty());
    CHECK(inv.distro.pretty_name == "Ubuntu 22.04.4 LTS");
}

TEST_CASE("inventory: conda layout and the image Env", "[inventory][catalog-fields]") {
    if (!test::have_program("gcc")) {
        CUVET_SKIP("skipped: no gcc");
    }
    test::TempDir tmp;
    auto compile = [&](const std::string& soname) {
        auto out = tmp / soname;
        test::write_file(tmp / "f.c", "int f(void) { return 1; }\n");
        auto r = test::run_shell("gcc -shared -fPIC -Wl,-soname," + soname + " -o " +
                                 test::shell_quote(out.string()) + " " +
                                 test::shell_quote((tmp / "f.c").string()));
        REQUIRE(r.exit_code == 0);
        return test::read_file(out);
    };
    test::Layer base, env_layer;
    base.entries = {
        test::dir("opt/"),
        test::dir("opt/conda/"),
        test::dir("opt/conda/lib/"),
        test::dir("opt/conda/conda-meta/"),
        test::file("opt/conda/lib/libcudnn.so.9.1.0", compile("libcudnn.so.9")),
        test::soft_link("opt/conda/lib/libcudnn.so.9", "libcudnn.so.9.1.0"),
        test::file("opt/conda/lib/libcudart.so.12.4.127", compile("libcudart.so.12")),
        test::file("opt/conda/conda-meta/cudnn-9.1.0.70-h123_0.json",
                   R"({"name": "cudnn", "version": "9.1.0.70", "build": "h123_0",
                                   "files": ["lib/libcudnn.so.9.1.0"]})"),
        test::file("opt/conda/conda-meta/cuda-cudart-12.4.127-he02047a_2.json",
                   R"({"name": "cuda-cudart", "version": "12.4.127", "build": "he02047a_2"})"),
        test::file("opt/conda/conda-meta/pytorch-2.3.1-py3.11_cuda12.1_cudnn8.9.2_0.json",
                   R"({"name": "pytorch", "version": "2.3.1"})"),
        test::dir("opt/conda/lib/python3.11/"),
        test::dir("opt/conda/lib/python3.11/site-packages/"),
        test::dir("opt/conda/lib/python3.11/site-packages/torch/"),
        test::file("opt/conda/lib/python3.11/site-packages/torch/version.py",
                   "__version__ = '2.3.1'\ncuda = '12.1'\n"),
        test::file("opt/conda/conda-meta/zlib-1.2.13-h5eee18b_0.json", "{}")};
    // A later layer removes the cuDNN file name's copy: the tree wins.
    test::ImageSpec spec;
    spec.layers = {base};
    spec.env = {"PATH=/opt/conda/bin:/usr/bin",
                "CUDA_VERSION=12.4.1",
                "NV_CUDNN_VERSION=9.1.0.70-1",
                "NVIDIA_VISIBLE_DEVICES=all",
                "LD_LIBRARY_PATH=/opt/conda/lib",
                "HOME=/root",
                "XLA_FLAGS=--xla_gpu_cuda_data_dir=/usr/local/cuda",
                "TRT_VERSION=10.3.0.26",
                "TORCHVISION_HOME=/root"};
    auto files = test::docker_archive({spec});
    files.write_tar(tmp / "conda.tar");
    auto image = image::open_image(tmp / "conda.tar", {});
    auto analysis = inventory::analyze(*image);
    const auto& inv = analysis.inventory;
    INFO(describe(inv));

    const auto* cudnn = component(inv, "cudnn", "/opt/conda");
    REQUIRE(cudnn != nullptr);
    CHECK(cudnn->version == "9.1.0.70");
    CHECK(cudnn->source == "conda");
    CHECK(has_evidence(*cudnn, "file-name"));
    CHECK(has_evidence(*cudnn, "conda-meta"));
    const auto* cudart = component(inv, "cudart", "/opt/conda");
    REQUIRE(cudart != nullptr);
    CHECK(cudart->version == "12.4.127");
    const auto* torch = component(inv, "torch", "/opt/conda/lib/python3.11/site-packages/torch");
    REQUIRE(torch != nullptr);
    CHECK(torch->version == "2.3.1");
    CHECK(torch->attributes.at("cuda") == "12.1");
    CHECK(has_evidence(*torch, "conda-meta"));
    CHECK(inv.find("zlib").empty());

    CHECK(inv.env.at("CUDA_VERSION") == "12.4.1");
    CHECK(inv.env.at("NV_CUDNN_VERSION") == "9.1.0.70-1");
    CHECK(inv.env.at("NVIDIA_VISIBLE_DEVICES") == "all");
    CHECK(inv.env.at("LD_LIBRARY_PATH") == "/opt/conda/lib");
    // Variables a framework reads, by the catalog's env_prefixes; another prefix is not one.
    CHECK(inv.env.at("XLA_FLAGS") == "--xla_gpu_cuda_data_dir=/usr/local/cuda");
    CHECK(inv.env.at("TRT_VERSION") == "10.3.0.26");
    CHECK(inv.env.count("TORCHVISION_HOME") == 0);
    CHECK(inv.env.count("HOME") == 0);
    CHECK(inv.env.count("PATH") == 0);

    auto json = inventory::to_json(inv);
    CHECK(json["schema_version"] == 1);
    CHECK(json["components"].is_array());
}

TEST_CASE("inventory: the real CUDA install of this machine", "[inventory][cuda]") {
    const fs::path cuda = "/usr/local/cuda";
    std::error_code ec;
    if (!fs::exists(cuda / "lib64/libcudart.so", ec) ||
        !fs::exists(cuda / "include/cudnn_version.h", ec)) {
        CUVET_SKIP("skipped: no CUDA with cuDNN under /usr/local/cuda");
    }
    // Copy the small real files (not the 500 MB ones) into a rootfs.
    test::Rootfs root;
    auto copy = [&](const fs::path& from, const std::string& to) {
        fs::create_directories(root.host(to).parent_path());
        fs::copy_file(fs::canonical(from), root.host(to), ec);
    };
    auto cudart = fs::canonical(cuda / "lib64/libcudart.so");
    auto cudnn = fs::canonical(cuda / "lib64/libcudnn.so");
    copy(cudart, "/usr/local/cuda/lib64/" + cudart.filename().string());
    copy(cudnn, "/usr/local/cuda/lib64/" + cudnn.filename().string());
    copy(cuda / "include/cudnn_version.h", "/usr/local/cuda/include/cudnn_version.h");
    auto analysis = analyze_dir(root.root());
    const auto& inv = analysis.inventory;
    INFO(describe(inv));
    const auto* c = component(inv, "cudnn", "/usr/local/cuda");
    REQUIRE(c != nullptr);
    CHECK(c->versions_agree);
    const auto* header = [&]() -> const inventory::Evidence* {
        for (const auto& e : c->evidence)
            if (e.kind == "header") return &e;
        return nullptr;
    }();
    REQUIRE(header != nullptr);
    CHECK(header->version.rfind("9.", 0) == 0);
    REQUIRE(component(inv, "cudart", "/usr/local/cuda") != nullptr);
    // The real ELF facts were read on the way.
    auto it = analysis.elfs.find("/usr/local/cuda/lib64/" + cudart.filename().string());
    REQUIRE(it != analysis.elfs.end());
    CHECK(it->second.soname.rfind("libcudart.so.", 0) == 0);
}
