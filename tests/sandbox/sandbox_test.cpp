// The sandbox module: process deadlines, safe extraction, driver discovery,
// probe report parsing and findings, and the built-in runner end to end (the
// probe's self-test inside a chroot; on a GPU host it also sees the GPU).
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <csignal>
#include <fstream>
#include <sstream>

#include "cuvet/core/error.hpp"
#include "cuvet/image/image.hpp"
#include "cuvet/sandbox/chroot_runner.hpp"
#include "cuvet/sandbox/extract.hpp"
#include "cuvet/sandbox/host_driver.hpp"
#include "cuvet/sandbox/probe_findings.hpp"
#include "cuvet/sandbox/probe_plan.hpp"
#include "cuvet/sandbox/probe_report.hpp"
#include "cuvet/sandbox/probe_runner.hpp"
#include "cuvet/sandbox/process.hpp"
#include "support/image_writer.hpp"
#include "support/process.hpp"
#include "support/program_rootfs.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"

using namespace cuvet;
using namespace cuvet::test;
namespace fs = std::filesystem;

namespace {

const fs::path probe_binary = fs::path(CUVET_BUILD_DIR) / "src/probe/cuvet-probe";

std::size_t count_entries(const fs::path& dir) {
    std::size_t count = 0;
    for (auto it = fs::recursive_directory_iterator(dir); it != fs::recursive_directory_iterator();
         ++it)
        ++count;
    return count;
}

}  // namespace

TEST_CASE("run_process captures output and kills a program that outlives its timeout",
          "[sandbox]") {
    sandbox::ProcessSpec spec;
    spec.argv = {"/bin/sh", "-c", "echo out; echo err >&2; exit 7"};
    sandbox::ProcessResult done = sandbox::run_process(spec);
    CHECK(done.exit_code == 7);
    CHECK(done.out == "out\n");
    CHECK(done.err == "err\n");
    CHECK_FALSE(done.timed_out);

    // The shell's child (sleep) is in the same process group and dies too.
    spec.argv = {"/bin/sh", "-c", "sleep 30 & sleep 30; echo never"};
    spec.timeout = std::chrono::milliseconds(500);
    sandbox::ProcessResult hung = sandbox::run_process(spec);
    CHECK(hung.timed_out);
    CHECK(hung.signal == SIGKILL);
    CHECK(hung.seconds < 10);
    CHECK(hung.out.empty());

    spec.argv = {"/nonexistent/program"};
    spec.timeout = std::chrono::seconds(10);
    sandbox::ProcessResult missing = sandbox::run_process(spec);
    CHECK(missing.exit_code == sandbox::exit_exec_failed);
    CHECK_THAT(missing.setup_error, Catch::Contains("/nonexistent/program"));

    spec.argv = {"/bin/true"};
    spec.child_setup = [] { return std::string("no namespace for you"); };
    sandbox::ProcessResult refused = sandbox::run_process(spec);
    CHECK(refused.exit_code == sandbox::exit_setup_failed);
    CHECK(refused.setup_error == "no namespace for you");
}

TEST_CASE("extract_rootfs rebuilds the merged tree and never writes outside it", "[sandbox]") {
    TempDir tmp;
    const fs::path outside = tmp / "outside";
    fs::create_directories(outside);
    ImageSpec spec;
    Layer base;
    base.entries = {dir("usr/"),
                    dir("usr/lib/"),
                    soft_link("lib", "usr/lib"),
                    file("usr/lib/libold.so.1", "old"),
                    file("usr/lib/keep.txt", "v1"),
                    file("bin/tool", "#!/bin/sh\n", 0755),
                    dir("ro/", 0555)};
    Layer top;
    // A layer's own symlinks are followed when it is extracted (a lower layer's are not there
    // to follow: the overlay runtimes extract each layer into a directory of its own).
    top.entries = {file("usr/lib/keep.txt", "v2"), whiteout("usr/lib/libold.so.1"),
                   soft_link("lib", "usr/lib"),
                   // Written through this layer's /lib symlink: lands in /usr/lib.
                   file("lib/libnew.so.2", "new"),
                   hard_link("usr/lib/libnew-link.so.2", "lib/libnew.so.2"),
                   file("ro/inside", "x")};
    spec.layers = {base, top};
    ImageFiles files = docker_archive({spec});
    files.write_tar(tmp / "image.tar");

    auto image = image::open_image(tmp / "image.tar", {});
    image::FileTree tree;
    const sandbox::ExtractStats stats =
        sandbox::extract_rootfs(*image, tmp / "rootfs", tmp / "staging", &tree);
    const fs::path root = tmp / "rootfs";
    CHECK(read_file(root / "usr/lib/keep.txt") == "v2");
    CHECK_FALSE(fs::exists(root / "usr/lib/libold.so.1"));
    CHECK(read_file(root / "usr/lib/libnew.so.2") == "new");
    CHECK(fs::is_symlink(root / "lib"));
    CHECK(fs::read_symlink(root / "lib") == "usr/lib");
    CHECK(fs::hard_link_count(root / "usr/lib/libnew.so.2") == 2);
    CHECK((fs::status(root / "bin/tool").permissions() & fs::perms::owner_exec) != fs::perms::none);
    CHECK(read_file(root / "ro/inside") == "x");
    // The top layer writes ro/inside without an entry for ro/: the runtimes create that
    // directory 0755 in the layer, and overlay shows the upper layer's mode (docs/parity.md).
    CHECK((fs::status(root / "ro").permissions() & fs::perms::owner_write) != fs::perms::none);
    CHECK(fs::is_empty(outside));
    CHECK_FALSE(fs::exists(tmp / "staging"));
    CHECK(stats.files == 4);  // keep.txt, libnew.so.2, tool, inside
    CHECK(stats.skipped.empty());
    CHECK(stats.hardlinks == 1);
    CHECK(tree.find("/usr/lib/keep.txt") != nullptr);
    fs::permissions(root / "ro", fs::perms::owner_all);  // let TempDir clean up as non-root too
}

// A layer writing through its own symlink to a host directory: the image has no such directory,
// so the runtimes fail the layer (docs/parity.md); cuvet refuses it and writes nothing, anywhere.
TEST_CASE("extract_rootfs refuses a write through a symlink to a host directory", "[sandbox]") {
    TempDir tmp;
    const fs::path outside = tmp / "outside";
    fs::create_directories(outside);
    ImageSpec spec;
    Layer top;
    top.entries = {dir("usr/"), soft_link("escape", outside.string()),
                   file("escape/pwned", "gotcha")};
    spec.layers = {top};
    ImageFiles files = docker_archive({spec});
    files.write_tar(tmp / "image.tar");
    auto image = image::open_image(tmp / "image.tar", {});
    image::FileTree tree;
    CHECK_THROWS_WITH(sandbox::extract_rootfs(*image, tmp / "rootfs", tmp / "staging", &tree),
                      Catch::Contains("leads to no directory"));
    CHECK(fs::is_empty(outside));
    CHECK_FALSE(fs::exists(tmp / "staging"));
}

TEST_CASE("parse_ldconfig keeps x86-64 driver libraries by soname", "[sandbox]") {
    const std::string text =
        "1234 libs found in cache `/etc/ld.so.cache'\n"
        "\tlibnvidia-ml.so.1 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1\n"
        "\tlibcuda.so.1 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcuda.so.1\n"
        "\tlibcuda.so.1 (libc6) => /usr/lib/i386-linux-gnu/libcuda.so.1\n"
        "\tlibcuda.so (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcuda.so\n";
    const auto libs = sandbox::parse_ldconfig(text);
    REQUIRE(libs.size() == 2);
    CHECK(libs[0].soname == "libnvidia-ml.so.1");
    CHECK(libs[1].soname == "libcuda.so.1");
    CHECK(libs[1].path == "/usr/lib/x86_64-linux-gnu/libcuda.so.1");

    // From directories only (no cache), with the device nodes of a fake /dev.
    TempDir tmp;
    fs::create_directories(tmp / "nvidia/lib64");
    write_file(tmp / "nvidia/lib64/libcuda.so.580.65.06", "elf");
    fs::create_symlink("libcuda.so.580.65.06", tmp / "nvidia/lib64/libcuda.so.1");
    write_file(tmp / "nvidia/lib64/libnvidia-ptxjitcompiler.so.1", "elf");
    write_file(tmp / "nvidia/lib64/libunrelated.so.1", "elf");
    fs::create_directories(tmp / "dev");
    write_file(tmp / "dev/nvidia0", "");
    write_file(tmp / "dev/nvidiactl", "");
    write_file(tmp / "dev/null", "");
    const auto driver = sandbox::find_host_driver("\n", {tmp / "nvidia/lib64"}, tmp / "dev");
    CHECK(driver.has_libcuda());
    CHECK(driver.libraries.size() == 2);
    CHECK(driver.device_nodes.size() == 2);
}

TEST_CASE("probe reports become findings", "[sandbox]") {
    const std::string mismatch =
        R"({"probe":"cuvet-probe","schema":1,"mode":"check","reference_self_check":true,
      "driver":{"version":13000,"cuInit":"CUDA_SUCCESS","device_count":1,
                "device":{"index":0,"name":"NVIDIA H100","compute_capability":"9.0","total_memory":1}},
      "runtime":{"status":"cudaSuccess","version":13000,"cudaSetDevice":"cudaSuccess"},
      "cudnn":{"version":91400,"cudart_version":13000,"cudnnCreate":"CUDNN_STATUS_SUCCESS"},
      "conv":[{"dtype":"float","ran":true,"ok":true,"algo":1,"max_abs_error":0,"atol":1e-4,"rtol":1e-5,"mismatches":0},
              {"dtype":"half","ran":true,"ok":false,"algo":6,"max_abs_error":3.5,"atol":1e-2,"rtol":1e-3,"mismatches":12}],
      "libraries":[{"role":"cudnn","requested":"libcudnn.so.9","loaded":true,
                    "path":"/usr/lib/x86_64-linux-gnu/libcudnn.so.9.14.0","error":"","missing_symbols":[]}],
      "loaded_objects":["/venv/torch/lib/../../nvidia/cudnn/lib/libcudnn.so.9",
                        "/usr/lib/x86_64-linux-gnu/libcudnn_graph.so.9"],
      "errors":[],"verdict":"conv_mismatch","exit_code":14})";
    const sandbox::ProbeReport report = sandbox::parse_probe_report("noise before\n" + mismatch);
    CHECK(report.device_name == "NVIDIA H100");
    CHECK(sandbox::cudnn_version_string(*report.cudnn_version) == "9.14.0");
    CHECK(sandbox::cuda_version_string(*report.driver_version) == "13.0");
    sandbox::ProbePlan plan;
    plan.expect.cudnn_version = "9.19.0";
    plan.expect.cudnn_source = "/venv/site-packages/nvidia_cudnn_cu13-9.19.0.56.dist-info";
    const auto findings = sandbox::probe_findings(report, plan);
    REQUIRE(findings.size() == 2);
    CHECK(findings[0].id == "CUVG02");
    CHECK_THAT(findings[0].message, Catch::Contains("9.14.0") && Catch::Contains("9.19.0"));
    CHECK_THAT(findings[0].message,
               Catch::Contains("mixed from /venv/nvidia/cudnn/lib, /usr/lib/x86_64-linux-gnu"));
    CHECK(findings[1].id == "CUVG04");

    const std::string missing =
        R"({"probe":"cuvet-probe","mode":"check","reference_self_check":true,
      "driver":{"version":13000,"cuInit":"CUDA_SUCCESS","device_count":1},
      "libraries":[{"role":"preload","requested":"/venv/torch/lib/libtorch_cuda.so","loaded":false,"path":"",
                    "error":"libcudnn.so.9: cannot open shared object file: No such file or directory"}],
      "errors":["dlopen preload: failed"],"verdict":"load_failed","exit_code":11})";
    const auto load = sandbox::probe_findings(sandbox::parse_probe_report(missing), plan);
    REQUIRE(load.size() == 1);
    CHECK(load[0].id == "CUVG01");
    CHECK_THAT(load[0].message, Catch::Contains("libcudnn.so.9: cannot open shared object file"));

    CHECK_THROWS_AS(sandbox::parse_probe_report("Segmentation fault"), cuvet::Error);
    sandbox::ProcessResult crashed;
    crashed.signal = SIGSEGV;
    crashed.err = "cuvet-probe: dlopen cudnn\ncuvet-probe: cudnnCreate\n";
    const auto crash = sandbox::probe_failed_finding(crashed, "builtin");
    CHECK(crash.id == "CUVG07");
    CHECK_THAT(crash.evidence.at(0), Catch::Contains("cudnnCreate"));
}

TEST_CASE("plan_probe preloads the framework and expects its wheel's cuDNN", "[sandbox]") {
    CHECK(sandbox::cudnn_version_from_name("nvidia_cudnn_cu13-9.19.0.56.dist-info") == "9.19.0");
    CHECK(sandbox::cudnn_version_from_name("libcudnn.so.9.14.0") == "9.14.0");
    CHECK_FALSE(sandbox::cudnn_version_from_name("libcudnn.so.9"));
    image::FileTree tree;
    const std::string site = "/opt/venv/lib/python3.12/site-packages";
    image::FileEntry lib;
    lib.path = site + "/torch/lib/libtorch_cuda.so";
    tree.put(lib);
    image::FileEntry record;
    record.path = site + "/nvidia_cudnn_cu13-9.19.0.56.dist-info/RECORD";
    tree.put(record);
    image::FileEntry other;
    other.path = "/usr/lib/x86_64-linux-gnu/libcudnn.so.9.14.0";
    tree.put(other);
    const sandbox::ProbePlan plan = sandbox::plan_probe(tree);
    CHECK(plan.framework_library == lib.path);
    CHECK(plan.args == std::vector<std::string>{"--preload", lib.path});
    CHECK(plan.expect.cudnn_version == "9.19.0");
    CHECK(plan.expect.cudnn_source == site + "/nvidia_cudnn_cu13-9.19.0.56.dist-info");

    const auto env =
        sandbox::probe_environment({"PATH=/bin", "LD_LIBRARY_PATH=/a"}, {"LD_LIBRARY_PATH=/b"});
    CHECK(env == std::vector<std::string>{"PATH=/bin", "LD_LIBRARY_PATH=/b"});
}

TEST_CASE("the probe's self-test runs inside a chroot of the image and reports cleanly",
          "[sandbox][chroot]") {
    if (!fs::exists(probe_binary)) {
        CUVET_SKIP("skipped: cuvet-probe was not built");
    }
    if (!can_unshare()) {
        CUVET_SKIP("skipped: the built-in runner needs root and mount namespaces");
    }
    TempDir tmp;
    copy_with_libraries(probe_binary, tmp / "rootfs");
    const std::size_t before = count_entries(tmp.path());
    auto image = image::open_image(tmp / "rootfs", {});
    sandbox::ProbeRunOptions options;
    options.probe_binary = probe_binary;
    options.self_test = true;
    options.work_dir = tmp / "work";
    options.timeout = std::chrono::seconds(60);
    fs::create_directories(options.work_dir);
    const sandbox::ProbeOutcome outcome = sandbox::run_probe(*image, options);
    INFO(outcome.process.err);
    REQUIRE(outcome.report);
    CHECK(outcome.process.exit_code == 0);
    CHECK(outcome.report->mode == "self-test");
    CHECK(outcome.report->reference_ok);
    const bool gpu_host = sandbox::find_host_driver().has_libcuda();
    if (!gpu_host) {
        CHECK(outcome.report->verdict == "no_device");
        REQUIRE(outcome.findings.size() == 1);
        CHECK(outcome.findings[0].id == "CUVG05");
        CHECK(outcome.findings[0].severity == report::Severity::info);
    } else {
        CHECK(outcome.report->verdict == "ok");
    }
    // The temp rootfs is gone and the input directory is untouched.
    CHECK(fs::is_empty(options.work_dir));
    CHECK(count_entries(tmp.path()) == before + 1);  // + the work dir itself

    // The same through the CLI; without a GPU the real check is a clear exit 3.
    const ProcessResult cli = run_cuvet(
        {"probe", "--self-test", "--probe", probe_binary.string(), (tmp / "rootfs").string()});
    CHECK(cli.exit_code == 0);
    CHECK_THAT(cli.out, Catch::Contains("Verdict"));
    if (!gpu_host) {
        const ProcessResult real =
            run_cuvet({"probe", "--probe", probe_binary.string(), (tmp / "rootfs").string()});
        CHECK(real.exit_code == 3);
        CHECK_THAT(real.err, Catch::Contains("no GPU visible"));
    }
}

TEST_CASE("the toolkit's stub libcuda on the image's LD_LIBRARY_PATH is named as the cause",
          "[sandbox][chroot]") {
    // The real stub answers cuInit with CUDA_ERROR_STUB_LIBRARY on any host, GPU or not.
    const fs::path stub = "/usr/local/cuda/lib64/stubs/libcuda.so";
    if (!fs::exists(probe_binary) || !fs::exists(stub)) {
        CUVET_SKIP("skipped: needs cuvet-probe and the CUDA toolkit's stub libcuda");
    }
    if (!can_unshare()) {
        CUVET_SKIP("skipped: the built-in runner needs root and mount namespaces");
    }
    TempDir tmp;
    copy_with_libraries(probe_binary, tmp / "rootfs");
    fs::create_directories(tmp / "rootfs/opt/stubs");
    fs::copy_file(stub, tmp / "rootfs/opt/stubs/libcuda.so");
    fs::create_symlink("libcuda.so", tmp / "rootfs/opt/stubs/libcuda.so.1");
    auto image = image::open_image(tmp / "rootfs", {});
    sandbox::ProbeRunOptions options;
    options.probe_binary = probe_binary;
    options.env_overrides = {"LD_LIBRARY_PATH=/opt/stubs"};
    options.frameworks = {};
    options.work_dir = tmp / "work";
    options.timeout = std::chrono::seconds(60);
    fs::create_directories(options.work_dir);
    const sandbox::ProbeOutcome outcome = sandbox::run_probe(*image, options);
    INFO(outcome.process.out << outcome.process.err);
    REQUIRE(outcome.report);
    CHECK(outcome.report->verdict == "no_device");
    REQUIRE(outcome.findings.size() == 1);
    CHECK(outcome.findings[0].id == "CUVG03");
    CHECK(outcome.findings[0].severity == report::Severity::error);
    CHECK_THAT(outcome.findings[0].message, Catch::Contains("CUDA_ERROR_STUB_LIBRARY") &&
                                                Catch::Contains("/opt/stubs/libcuda.so"));
}

TEST_CASE("a probe that hangs inside the chroot is killed at the timeout", "[sandbox][chroot]") {
    if (!can_unshare()) {
        CUVET_SKIP("skipped: the built-in runner needs root and mount namespaces");
    }
    TempDir tmp;
    // A "probe" that never ends: sh running sleep, with sh's libraries.
    copy_with_libraries("/bin/sh", tmp / "rootfs");
    copy_with_libraries("/bin/sleep", tmp / "rootfs");
    fs::create_directories(tmp / "rootfs/bin");
    fs::copy_file("/bin/sleep", tmp / "rootfs/bin/sleep");
    write_file(tmp / "hang.sh", "#!/bin/sh\n/bin/sleep 60\n");
    fs::copy_file(fs::canonical("/bin/sh"), tmp / "rootfs/bin/sh",
                  fs::copy_options::overwrite_existing);
    ::chmod((tmp / "hang.sh").c_str(), 0755);
    sandbox::ChrootOptions options;
    options.inject_driver = false;
    options.timeout = std::chrono::seconds(1);
    options.environment = {"PATH=/bin"};
    const auto run = sandbox::run_in_chroot(tmp / "rootfs", tmp / "hang.sh", {}, options);
    INFO(run.process.err);
    CHECK(run.process.timed_out);
    CHECK(run.process.seconds < 10);
}
