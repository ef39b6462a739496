// The toolkit's start, rebuilt by the built-in sandbox: the host's ldconfig
// over the image's own ld.so.conf after the driver injection (a stale
// /etc/ld.so.cache stops mattering, as under the NVIDIA runtime), and a CDI
// spec's device nodes, mounts and hooks injected as the spec says.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "cuvet/core/error.hpp"
#include "cuvet/sandbox/cdi_spec.hpp"
#include "cuvet/sandbox/chroot_runner.hpp"
#include "cuvet/sandbox/ld_cache_refresh.hpp"
#include "cuvet/sandbox/namespaces.hpp"
#include "support/process.hpp"
#include "support/program_rootfs.hpp"
#include "support/temp_dir.hpp"

using namespace cuvet;
using namespace cuvet::test;
namespace fs = std::filesystem;

namespace {

// What `nvidia-ctk cdi generate` writes (trimmed: one GPU, one library), with `lib` as the driver
// file.
std::string nvidia_ctk_spec(const fs::path& lib, const std::string& device_node) {
    return "---\n"
           "cdiVersion: 0.5.0\n"
           "containerEdits:\n"
           "  deviceNodes:\n"
           "  - path: " +
           device_node +
           "\n"
           "  env:\n"
           "  - NVIDIA_VISIBLE_DEVICES=void\n"
           "  hooks:\n"
           "  - args:\n"
           "    - nvidia-cdi-hook\n"
           "    - create-symlinks\n"
           "    - --link\n"
           "    - libfakecuda.so.580.1::/usr/lib/x86_64-linux-gnu/libfakecuda.so.1\n"
           "    hookName: createContainer\n"
           "    path: /usr/bin/nvidia-cdi-hook\n"
           "  - args:\n"
           "    - nvidia-cdi-hook\n"
           "    - update-ldcache\n"
           "    - --folder\n"
           "    - /opt/extra\n"
           "    hookName: createContainer\n"
           "    path: /usr/bin/nvidia-cdi-hook\n"
           "  - args:\n"
           "    - nvidia-cdi-hook\n"
           "    - enable-cuda-compat\n"
           "    hookName: createContainer\n"
           "    path: /usr/bin/nvidia-cdi-hook\n"
           "  mounts:\n"
           "  - containerPath: /usr/lib/x86_64-linux-gnu/libfakecuda.so.580.1\n"
           "    hostPath: " +
           lib.string() +
           "\n"
           "    options:\n"
           "    - ro\n"
           "    - nosuid\n"
           "    - nodev\n"
           "    - bind\n"
           "devices:\n"
           "- containerEdits:\n"
           "    deviceNodes:\n"
           "    - path: " +
           device_node +
           "\n"
           "  name: \"0\"\n"
           "kind: nvidia.com/gpu\n";
}

bool build_library(const fs::path& out, const std::string& soname) {
    const fs::path source = out.string() + ".c";
    write_file(source, "int fake_symbol(void) { return 7; }\n");
    return run_shell("gcc -shared -fPIC -Wl,-soname," + soname + " -o " +
                     shell_quote(out.string()) + " " + shell_quote(source.string()))
               .exit_code == 0;
}

// A program that dlopens `soname` (found through the ld.so cache only) and says whether it could.
bool build_dlopen_program(const fs::path& out, const std::string& soname) {
    const fs::path source = out.string() + ".c";
    write_file(source,
               "#include <dlfcn.h>\n#include <stdio.h>\nint main(void) {\n  void* h = dlopen(\"" +
                   soname +
#include "support/skip.hpp"
                   "\", RTLD_NOW);\n  puts(h ? \"loaded\" : dlerror());\n  return h ? 0 : 1;\n}\n");
    return run_shell("gcc -o " + shell_quote(out.string()) + " " + shell_quote(source.string()) +
                     " -ldl")
               .exit_code == 0;
}

}  // namespace

TEST_CASE("a CDI spec is read as nvidia-ctk writes it", "[sandbox][cdi]") {
    const auto edits = sandbox::parse_cdi_spec(
        nvidia_ctk_spec("/host/libfakecuda.so.580.1", "/dev/nvidia0"), "nvidia.yaml");
    REQUIRE(edits);
    REQUIRE(edits->device_nodes.size() == 1);  // the shared and the device's own entry are one node
    CHECK(edits->device_nodes[0].path == "/dev/nvidia0");
    REQUIRE(edits->mounts.size() == 1);
    CHECK(edits->mounts[0].host_path == "/host/libfakecuda.so.580.1");
    CHECK(edits->mounts[0].container_path == "/usr/lib/x86_64-linux-gnu/libfakecuda.so.580.1");
    REQUIRE(edits->symlinks.size() == 1);
    CHECK(edits->symlinks[0].target == "libfakecuda.so.580.1");
    CHECK(edits->symlinks[0].link == "/usr/lib/x86_64-linux-gnu/libfakecuda.so.1");
    CHECK(edits->ldcache_folders == std::vector<std::string>{"/opt/extra"});
    CHECK(edits->env == std::vector<std::string>{"NVIDIA_VISIBLE_DEVICES=void"});
    CHECK(edits->ignored_hooks == std::vector<std::string>{"nvidia-cdi-hook enable-cuda-compat"});

    // JSON is a spec too; another kind is not the GPU's; garbage is bad input naming the file.
    const auto json = sandbox::parse_cdi_spec(
        R"({"cdiVersion":"0.6.0","kind":"nvidia.com/gpu","devices":[{"name":"all","containerEdits":{"deviceNodes":[{"path":"/dev/nvidiactl"}]}}]})",
        "nvidia.json");
    REQUIRE(json);
    CHECK(json->device_nodes.size() == 1);
    CHECK_FALSE(sandbox::parse_cdi_spec("cdiVersion: 0.5.0\nkind: vendor.com/fpga\n", "fpga.yaml"));
    try {
        sandbox::parse_cdi_spec("[1, 2", "broken.yaml");
        FAIL("no error for a broken spec");
    } catch (const Error& error) {
        CHECK(error.kind() == ErrorKind::input);
        CHECK_THAT(error.what(), Catch::Contains("broken.yaml"));
    }
}

TEST_CASE("the sandbox injects what a CDI spec says and refreshes the ld.so cache with its folders",
          "[sandbox][cdi][chroot]") {
    if (!can_unshare() || sandbox::host_ldconfig().empty()) {
        CUVET_SKIP("needs root, namespaces and an ldconfig on this host");
    }
    TempDir tmp;
    REQUIRE(build_library(tmp / "libfakecuda.so.580.1", "libfakecuda.so.1"));
    const fs::path root = tmp / "rootfs";
    copy_with_libraries("/bin/sh", root);
    fs::create_directories(root / "bin");
    fs::copy_file("/bin/sh", root / "bin/sh");
    fs::create_directories(root / "etc");
    fs::create_directories(root / "usr/lib/x86_64-linux-gnu");
    fs::create_directories(root / "opt/extra");
    REQUIRE(build_library(root / "opt/extra/libextra.so.1", "libextra.so.1"));
    write_file(root / "etc/ld.so.conf", "");
    fs::create_directories(tmp / "cdi");
    // /dev/loop-control stands in for a GPU node: a character device every Linux host has.
    const std::string node = fs::exists("/dev/loop-control") ? "/dev/loop-control" : "/dev/full";
    write_file(tmp / "cdi/nvidia.yaml", nvidia_ctk_spec(tmp / "libfakecuda.so.580.1", node));
    const auto edits = sandbox::find_gpu_cdi_spec({tmp / "none", tmp / "cdi"});
    REQUIRE(edits);

    sandbox::ChrootOptions options;
    options.driver = sandbox::driver_from_cdi(*edits);
    options.environment = {"PATH=/bin"};
    const sandbox::ChrootRun run = sandbox::run_image_program(
        root,
        {"/bin/sh", "-c",
         "[ -c " + node + " ] && echo node=yes; [ -e /dev/nvidia0 ] || echo guessed=no"},
        options);
    INFO(run.process.out << run.process.err << run.process.setup_error << run.ld_cache_problem);
    CHECK(run.process.exit_code == 0);
    CHECK_THAT(run.process.out, Catch::Contains("node=yes"));
    CHECK_THAT(run.process.out, Catch::Contains("guessed=no"));
    CHECK(run.ld_cache_problem.empty());
    CHECK(fs::is_regular_file(root / "usr/lib/x86_64-linux-gnu/libfakecuda.so.580.1"));
    CHECK(fs::read_symlink(root / "usr/lib/x86_64-linux-gnu/libfakecuda.so.1") ==
          "libfakecuda.so.580.1");
    const std::string cache = read_file(root / "etc/ld.so.cache");
    CHECK_THAT(cache, Catch::Contains("libextra.so.1"));  // the hook's folder, not in ld.so.conf
}

TEST_CASE(
    "a stale ld.so cache works as under the NVIDIA runtime: ldconfig runs over the image's "
    "ld.so.conf",
    "[sandbox][chroot]") {
    if (!can_unshare() || sandbox::host_ldconfig().empty()) {
        CUVET_SKIP("needs root, namespaces and an ldconfig on this host");
    }
    TempDir tmp;
    const fs::path root = tmp / "rootfs";
    REQUIRE(build_dlopen_program(tmp / "check", "libfakecudnn.so.9"));
    copy_with_libraries(tmp / "check", root);
    fs::create_directories(root / "bin");
    fs::copy_file(tmp / "check", root / "bin/check");
    fs::create_directories(root / "opt/cudnn/lib");
    REQUIRE(build_library(root / "opt/cudnn/lib/libfakecudnn.so.9", "libfakecudnn.so.9"));
    fs::create_directories(root / "etc/ld.so.conf.d");
    write_file(root / "etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n");
    // The cache is built before the image lists /opt/cudnn/lib: stale, as in the issue's image.
    REQUIRE(run_shell("ldconfig -r " + shell_quote(root.string())).exit_code == 0);
    write_file(root / "etc/ld.so.conf.d/cudnn.conf", "/opt/cudnn/lib\n");

    sandbox::ChrootOptions options;
    options.environment = {"PATH=/bin"};
    options.run_ldconfig = false;  // the old chroot: no ldconfig after the injection
    const sandbox::ChrootRun stale = sandbox::run_image_program(root, {"/bin/check"}, options);
    CHECK(stale.process.exit_code == 1);
    CHECK_THAT(stale.process.out, Catch::Contains("libfakecudnn.so.9"));

    options.run_ldconfig = true;
    const sandbox::ChrootRun refreshed = sandbox::run_image_program(root, {"/bin/check"}, options);
    INFO(refreshed.process.out << refreshed.process.err << refreshed.process.setup_error
                               << refreshed.ld_cache_problem);
    CHECK(refreshed.process.exit_code == 0);
    CHECK(refreshed.process.out == "loaded\n");
    // The host's ldconfig wrote the cache as the sandbox's unprivileged user, not as host root.
    struct stat info {};
    REQUIRE(::stat((root / "etc/ld.so.cache").c_str(), &info) == 0);
    CHECK(info.st_uid == sandbox::sandbox_id_base);
}
