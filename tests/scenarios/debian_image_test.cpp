// What a new user validates first: a real Debian root file system made by
// mmdebstrap from the machine's apt sources (python3, openmpi, the i386
// multilib), a CUDA-toolkit-like tree with 32-bit helper libraries, and an
// app linked to cuDNN as the ENTRYPOINT. Nothing in it breaks, so no error;
// its twin without cuDNN breaks the app, and the error names the ENTRYPOINT.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "scenarios/scenario_support.hpp"
#include "support/cuda_image.hpp"
#include "support/skip.hpp"

using namespace cuvet::test;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The machine's apt sources, as mmdebstrap takes them (one file per mirror argument).
std::string apt_sources() {
    std::string out;
    if (fs::exists("/etc/apt/sources.list") && fs::file_size("/etc/apt/sources.list") > 0)
        out += " /etc/apt/sources.list";
    if (fs::is_directory("/etc/apt/sources.list.d"))
        for (const auto& e : fs::directory_iterator("/etc/apt/sources.list.d")) {
            auto ext = e.path().extension().string();
            if (ext == ".list" || ext == ".sources") out += " " + shell_quote(e.path().string());
        }
    return out;
}

std::string codename() {
    std::ifstream in("/etc/os-release");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("VERSION_CODENAME=", 0) == 0) return line.substr(17);
    return "";
}

// The mmdebstrap tarball, made once per build dir (a lock keeps parallel
// tests from making it twice); "" with the reason in `why` when it cannot be made.
std::string debian_rootfs(std::string& why) {
    const fs::path dir = fs::path(CUVET_BUILD_DIR) / "testdata";
    const fs::path tar = dir / "debian-rootfs.tar";
    if (fs::exists(tar)) return tar.string();
    if (run_shell("command -v mmdebstrap >/dev/null").exit_code != 0) {
        why = "mmdebstrap is not installed";
        return "";
    }
    const auto sources = apt_sources();
    if (sources.empty() || codename().empty()) {
        why = "no apt sources or release codename on this machine";
        return "";
    }
    fs::create_directories(dir);
    const fs::path log = dir / "debian-rootfs.log";
    // The host's downloaded packages are hard-linked in when they match, so a
    // machine that has them does not fetch them again; dpkg skips its fsyncs.
    // Bounded below the test's time limit: a mirror too slow is a skip.
    const std::string cache_hook =
        "--skip=download/empty --setup-hook='mkdir -p \"$1\"/var/cache/apt/archives && "
        "cp -l /var/cache/apt/archives/*.deb \"$1\"/var/cache/apt/archives/ 2>/dev/null || true'";
    const std::string make =
        "test -f " + shell_quote(tar.string()) +
        " || { timeout 500 mmdebstrap --variant=essential --format=tar --dpkgopt=force-unsafe-io "
        "--include=python3,openmpi-bin,libopenmpi3,libc6-i386 " +
        cache_hook + " " + codename() + " " + shell_quote(tar.string() + ".part") + sources +
        " && mv " + shell_quote(tar.string() + ".part") + " " + shell_quote(tar.string()) + "; }";
    auto made =
        run_shell("flock " + shell_quote((dir / "debian-rootfs.lock").string()) + " sh -c " +
                  shell_quote(make) + " > " + shell_quote(log.string()) + " 2>&1");
    if (made.exit_code != 0 || !fs::exists(tar)) {
        why =
            "mmdebstrap could not make the root file system in time (mirror unreachable or slow?); "
            "see " +
            log.string();
        return "";
    }
    return tar.string();
}

// 32-bit helper libraries as a full toolkit ships them (compute-sanitizer's
// injection libraries): gcc -m32 when the multilib compiler is there, else
// real i386 files of the Debian multilib.
void add_i386_helpers(CudaImage& img, const std::string& dir) {
    img.fs().mkdir(dir);
    const auto out = img.fs().host(dir + "/libsanitizer-collection.so");
    auto src = img.fs().host("/.i386.c");
    std::ofstream(src) << "int sanitizer_helper(void) { return 32; }\n";
    bool built =
        run_shell("gcc -m32 -shared -fPIC -Wl,-soname,libsanitizer-collection.so -o " +
                  shell_quote(out.string()) + " " + shell_quote(src.string()) + " 2>/dev/null")
            .exit_code == 0;
    fs::remove(src);
    if (built) return;
    auto copied =
        run_shell("tar -xOf " +
                  shell_quote(fs::path(CUVET_BUILD_DIR).string() + "/testdata/debian-rootfs.tar") +
                  " ./usr/lib32/libm.so.6 > " + shell_quote(out.string()) + " && tar -xOf " +
                  shell_quote(fs::path(CUVET_BUILD_DIR).string() + "/testdata/debian-rootfs.tar") +
                  " ./usr/lib32/libpthread.so.0 > " +
                  shell_quote(img.fs().host(dir + "/libTreeLauncherTargetInjection.so").string()));
    REQUIRE(copied.exit_code == 0);
}

// cuDNN in the toolkit tree: the real dispatcher of /usr/local/cuda when the
// machine has it (its engine sub-libraries, hundreds of MB, as gcc-built
// stand-ins of their sonames), else a gcc-built libcudnn.so.9.
void add_cudnn(CudaImage& img, const std::string& lib) {
    const fs::path real = "/usr/local/cuda/lib64/libcudnn.so.9";
    if (fs::exists(real)) {
        fs::create_directories(img.fs().host(lib));
        fs::copy_file(fs::canonical(real), img.fs().host(lib + "/libcudnn.so.9"));
        for (const char* sub :
             {"libcudnn_graph.so.9", "libcudnn_ops.so.9", "libcudnn_cnn.so.9", "libcudnn_adv.so.9",
              "libcudnn_heuristic.so.9", "libcudnn_engines_precompiled.so.9",
              "libcudnn_engines_runtime_compiled.so.9"})
            img.fs().lib(lib + "/" + sub, sub);
    } else {
        img.fs().lib_source(lib + "/libcudnn.so.9", "libcudnn.so.9",
                            "int cudnnCreate(void **h) { *h = 0; return 0; }\n");
    }
}

struct DebianImage {
    CudaImage img;
    std::string path;
};

// The app: /opt/app/bin/infer needs libcudnn.so.9 through its RUNPATH into the toolkit.
void make_image(DebianImage& d, const std::string& rootfs, bool with_cudnn) {
    Layer base;
    base.compression = Compression::none;
    base.raw_blob = slurp(rootfs);
    base.created_by =
        "mmdebstrap --variant=essential --include=python3,openmpi-bin,libopenmpi3,libc6-i386";
    d.img.base_layers.push_back(std::move(base));
    d.img.cuda_toolkit("13.0.48");
    const std::string lib = "/usr/local/cuda-13.0/targets/x86_64-linux/lib";
    add_cudnn(d.img, "/opt/stage");
    add_cudnn(d.img, lib);
    add_i386_helpers(d.img, "/usr/local/cuda-13.0/compute-sanitizer/x86");
    d.img.fs().exe("/opt/app/bin/infer", {"/opt/stage/libcudnn.so.9"},
                   "-Wl,--enable-new-dtags,-rpath,/usr/local/cuda/lib64");
    fs::remove_all(d.img.fs().host("/opt/stage"));
    if (!with_cudnn)
        for (const auto& e : fs::directory_iterator(d.img.fs().host(lib)))
            if (e.path().filename().string().rfind("libcudnn", 0) == 0) fs::remove(e.path());
    d.img.entrypoint = {"/opt/app/bin/infer"};
    d.img.env = {
        "PATH=/usr/local/cuda/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"};
    REQUIRE(d.img.fs().error().empty());
    d.path = d.img.write().string();
}

std::size_t count(const CliReport& r, const std::string& severity) {
    std::size_t n = 0;
    for (const auto& f : r.json["findings"]) n += f["severity"] == severity;
    return n;
}

}  // namespace

TEST_CASE(
    "Debian image: the i386 multilib, openmpi and a toolkit's 32-bit helpers are no error, a "
    "missing cuDNN is",
    "[integration][scenario][validate][debian][slow]") {
    std::string why;
    const auto rootfs = debian_rootfs(why);
    if (rootfs.empty()) {
        CUVET_SKIP("skipped: " << why);
    }
    DebianImage good;
    make_image(good, rootfs, true);
    auto r = validate_cli(good.path, {"--driver", "580.65.06"});
    INFO(dump(r));
    REQUIRE(r.json.is_object());
    CHECK(count(r, "error") == 0);
    CHECK(r.exit_code == 0);
    // The multilib and the 32-bit helpers: a few grouped notes, never one per file.
    std::size_t i386_notes = 0;
    for (const auto& f : r.json["findings"]) {
        if (f["id"] != "CUV011") continue;
        ++i386_notes;
        CHECK(f["severity"] == "info");
        CHECK(f["message"].get<std::string>().find("nothing in the image loads") !=
              std::string::npos);
    }
    CHECK(i386_notes >= 2);  // /usr/lib32, compute-sanitizer/x86
    CHECK(i386_notes <= 3);

    // A CUDA 13 runtime on a 470 driver breaks, whatever else is fine.
    auto old_driver = validate_cli(good.path, {"--driver", "470.223.02"});
    CHECK(old_driver.ids.count("CUV009") == 1);

    DebianImage broken;
    make_image(broken, rootfs, false);
    auto b = validate_cli(broken.path);
    INFO(dump(b));
    REQUIRE(b.json.is_object());
    CHECK(b.exit_code == 1);
    bool named = false;
    for (const auto& f : b.json["findings"]) {
        if (f["severity"] != "error") continue;
        CHECK(f["id"] == "CUV001");
        const auto message = f["message"].get<std::string>();
        named = named || (message.find("libcudnn.so.9") != std::string::npos &&
                          f.value("loaded_by", "") == "ENTRYPOINT /opt/app/bin/infer");
    }
    CHECK(named);
}
