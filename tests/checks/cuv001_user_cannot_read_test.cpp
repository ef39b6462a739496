// CUV001: a library the image's USER cannot open does not satisfy DT_NEEDED (issue 33). ld.so's
// open() fails with EACCES, open_path skips that directory and the search goes on.
#include <catch2/catch.hpp>

#include "support/cuda_image.hpp"
#include "support/temp_dir.hpp"

using namespace cuvet::test;

namespace {

// A gcc-built program whose RUNPATH is /opt/a:/opt/b and which needs libneed.so.1.
struct Binaries {
    std::string program, library;
};
const Binaries& binaries() {
    static const Binaries built = [] {
        Rootfs fs;
        fs.lib("/opt/a/libneed.so.1", "libneed.so.1");
        fs.exe("/app", {"/opt/a/libneed.so.1"}, "-Wl,--enable-new-dtags,-rpath,/opt/a:/opt/b");
        REQUIRE(fs.error().empty());
        return Binaries{read_file(fs.host("/app")), read_file(fs.host("/opt/a/libneed.so.1"))};
    }();
    return built;
}

TarEntry owned(TarEntry entry, std::uint32_t uid, std::uint32_t gid) {
    entry.uid = uid;
    entry.gid = gid;
    return entry;
}

std::vector<TarEntry> base_layer() {
    return {dir("usr/"),
            dir("usr/bin/"),
            file("usr/bin/app", binaries().program, 0755),
            dir("etc/"),
            file("etc/passwd", "root:x:0:0:root:/root:/bin/sh\nsvc:x:1000:1000::/home/svc:\n"),
            file("etc/group", "root:x:0:\nsvc:x:1000:\nvideo:x:44:svc\n"),
            dir("opt/")};
}

// CUV001 findings about libneed.so.1 (the image has no glibc: libc.so.6 is reported too).
std::vector<cuvet::report::Finding> libneed_findings(std::vector<TarEntry> entries,
                                                     const std::string& user) {
    ImageSpec spec;
    Layer layer;
    layer.entries = std::move(entries);
    spec.layers.push_back(layer);
    spec.entrypoint = {"/usr/bin/app"};
    spec.user = user;
    TempDir tmp;
    auto path = tmp / "image.tar";
    docker_archive({spec}).write_tar(path);
    std::vector<cuvet::report::Finding> out;
    for (auto& f : validate_findings(path))
        if (f.id == "CUV001" && f.message.rfind("libneed.so.1", 0) == 0)
            out.push_back(std::move(f));
    return out;
}

std::vector<TarEntry> with_library(TarEntry library, std::uint32_t dir_mode = 0755) {
    auto entries = base_layer();
    entries.push_back(dir("opt/a/", dir_mode));
    entries.push_back(std::move(library));
    return entries;
}

}  // namespace

TEST_CASE("CUV001: a 0600 root-owned library is unreadable for USER 1000",
          "[validate][cuv001][user_permissions]") {
    const auto lib = [](std::uint32_t mode) {
        return file("opt/a/libneed.so.1", binaries().library, mode);
    };
    CHECK(libneed_findings(with_library(lib(0644)), "svc").empty());
    auto denied = libneed_findings(with_library(lib(0600)), "1000");
    REQUIRE(denied.size() == 1);
    CHECK(denied[0].severity == cuvet::report::Severity::error);
    CHECK_THAT(denied[0].message,
               Catch::Contains("USER 1000 (uid 1000, gid 1000) cannot read /opt/a/libneed.so.1 "
                               "(owner 0:0, mode 0600)"));
    // The default dirs after /opt/a exist or were tried last: ld.so's errno is ENOENT.
    CHECK_THAT(denied[0].message,
               Catch::Contains("(ld.so: \"cannot open shared object file: No such file or "
                               "directory\")"));
    CHECK_THAT(denied[0].fix, Catch::Contains("chmod a+r"));
    // Root keeps CAP_DAC_OVERRIDE under the default capabilities: it reads the file.
    CHECK(libneed_findings(with_library(lib(0600)), "").empty());
    CHECK(libneed_findings(with_library(lib(0600)), "root").empty());
}

TEST_CASE("CUV001: the owner, group or other bits by the tar header's uid and gid",
          "[validate][cuv001][user_permissions]") {
    const auto lib = [](std::uint32_t mode, std::uint32_t uid, std::uint32_t gid) {
        return owned(file("opt/a/libneed.so.1", binaries().library, mode), uid, gid);
    };
    CHECK(libneed_findings(with_library(lib(0600, 1000, 1000)), "svc").empty());
    // The group class: svc's supplementary group video (44) from /etc/group.
    CHECK(libneed_findings(with_library(lib(0640, 0, 44)), "svc").empty());
    // An explicit group drops the supplementary ones (runc's GetExecUser).
    CHECK(libneed_findings(with_library(lib(0640, 0, 44)), "svc:svc").size() == 1);
    CHECK(libneed_findings(with_library(lib(0640, 0, 44)), "svc:video").empty());
    // The owner's class alone applies to the owner, even with fewer bits than "other".
    CHECK(libneed_findings(with_library(lib(0044, 1000, 0)), "svc").size() == 1);
    // A directory on the way the user cannot search.
    auto hidden = libneed_findings(with_library(lib(0644, 0, 0), 0700), "svc");
    REQUIRE(hidden.size() == 1);
    CHECK_THAT(hidden[0].message, Catch::Contains("cannot search /opt/a (owner 0:0, mode 0700)"));
}

TEST_CASE("CUV001: after EACCES ld.so goes on to the next search directory",
          "[validate][cuv001][user_permissions]") {
    auto entries = with_library(file("opt/a/libneed.so.1", binaries().library, 0600));
    entries.push_back(dir("opt/b/"));
    entries.push_back(file("opt/b/libneed.so.1", binaries().library, 0644));
    CHECK(libneed_findings(entries, "svc").empty());
}
