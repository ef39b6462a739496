// Issue 33: a FIFO or a device node named like a needed library is not passed
// over as if it were missing. ld.so's open_verify (elf/dl-load.c) open()s the
// path read-only: on a FIFO that waits for a writer that never comes, so the
// program hangs before main; a device node is refused by the container's
// device cgroup or reads no ELF header. Either way the search stops there.
#include <sys/stat.h>

#include <catch2/catch.hpp>

#include "support/cuda_image.hpp"
#include "support/process.hpp"

using namespace cuvet::test;

namespace {

// /usr/bin/app needs libx.so.1 through RUNPATH /f:/l; the real one is in /l,
// and a later layer puts `stand_in` at /f/libx.so.1, ahead of it.
std::vector<cuvet::report::Finding> findings_with(TarEntry::Type stand_in) {
    CudaImage img;
    img.glibc();
    img.fs().lib("/l/libx.so.1", "libx.so.1");
    img.fs().mkdir("/f");
    img.fs().exe("/usr/bin/app", {"/l/libx.so.1"}, "-Wl,--enable-new-dtags,-rpath,/f:/l");
    REQUIRE(img.fs().error().empty());
    TarEntry special;
    special.name = "f/libx.so.1";
    special.type = stand_in;
    Layer top;
    top.entries = {dir("f/"), special};
    top.created_by = "RUN mkfifo /f/libx.so.1";
    img.entrypoint = {"/usr/bin/app"};
    ImageSpec spec;
    spec.entrypoint = img.entrypoint;
    spec.layers = {img.layer(), top};
    TempDir out;
    const auto path = out / "image.tar";
    docker_archive({spec}).write_tar(path);
    return validate_findings(path);
}

const cuvet::report::Finding* cuv001(const std::vector<cuvet::report::Finding>& findings) {
    for (const auto& f : findings)
        if (f.id == "CUV001") return &f;
    return nullptr;
}

}  // namespace

TEST_CASE("CUV001: the build machine's ld.so hangs on a FIFO named like a needed library",
          "[validate][cuv001]") {
    // The model's ground truth: the same layout on this machine, run by its own ld.so.
    Rootfs fs;
    fs.lib("/l/libx.so.1", "libx.so.1");
    fs.mkdir("/f");
    const std::string runpath = fs.host("/f").string() + ":" + fs.host("/l").string();
    fs.exe("/app", {"/l/libx.so.1"}, "-Wl,--enable-new-dtags,-rpath," + runpath);
    REQUIRE(fs.error().empty());
    CHECK(run_shell("timeout 5 " + shell_quote(fs.host("/app").string())).exit_code == 0);
    REQUIRE(::mkfifo(fs.host("/f/libx.so.1").c_str(), 0644) == 0);
    CHECK(run_shell("timeout 1 " + shell_quote(fs.host("/app").string())).exit_code == 124);
}

TEST_CASE("CUV001: a FIFO ahead of the real library hangs the program", "[validate][cuv001]") {
    auto findings = findings_with(TarEntry::Type::fifo);
    INFO(describe_findings(findings));
    const auto* f = cuv001(findings);
    REQUIRE(f != nullptr);
    CHECK(f->severity == cuvet::report::Severity::error);
    CHECK_THAT(f->message, Catch::Contains("ld.so cannot load /f/libx.so.1: it is a FIFO") &&
                               Catch::Contains("hangs before it starts"));
}

TEST_CASE("CUV001: a device node ahead of the real library stops the load", "[validate][cuv001]") {
    auto findings = findings_with(TarEntry::Type::char_device);
    INFO(describe_findings(findings));
    const auto* f = cuv001(findings);
    REQUIRE(f != nullptr);
    CHECK(f->severity == cuvet::report::Severity::error);
    CHECK_THAT(f->message, Catch::Contains("ld.so cannot load /f/libx.so.1"));
    bool traced = false;
    for (const auto& e : f->evidence)
        traced = traced || e.find("a device node") != std::string::npos;
    CHECK(traced);
}
