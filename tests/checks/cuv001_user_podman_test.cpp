// CUV001 and the image's USER against the runtime: the same image, run by podman as USER 1000
// with a 0600 root-owned needed library, fails to start, and cuvet says so quoting the line
// ld.so prints; with the library 0644 both accept it (issue 33).
#include <catch2/catch.hpp>
#include <optional>

#include "support/cuda_image.hpp"
#include "support/process.hpp"
#include "support/rootfs_builder.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"

using namespace cuvet::test;
namespace fs = std::filesystem;

// Named: tests of one folder are compiled together in batches, and anonymous namespaces merge.
namespace cuv001_user_podman {

constexpr const char* lib_dir = "usr/lib/x86_64-linux-gnu/";

// The build machine's glibc, a gcc-built /app and the libneed.so.1 it needs in the multiarch
// dir; USER 1000 and no /etc/ld.so.cache, as in the red team's reproducer.
struct Built {
    std::string ld_so, libc, library, program;
};
const Built* built() {
    static const std::optional<Built> files = []() -> std::optional<Built> {
        Rootfs fs;
        if (!fs.add_host_glibc()) return std::nullopt;
        fs.lib("/usr/lib/x86_64-linux-gnu/libneed.so.1", "libneed.so.1");
        fs.exe("/app", {"/usr/lib/x86_64-linux-gnu/libneed.so.1"});
        if (!fs.error().empty()) return std::nullopt;
        const std::string in = std::string("/") + lib_dir;
        return Built{read_file(fs.host(in + "ld-linux-x86-64.so.2")),
                     read_file(fs.host(in + "libc.so.6")), read_file(fs.host(in + "libneed.so.1")),
                     read_file(fs.host("/app"))};
    }();
    return files ? &*files : nullptr;
}

ImageSpec image_with_library_mode(const Built& b, std::uint32_t mode) {
    const std::string multiarch = lib_dir;
    Layer layer;
    layer.entries = {
        dir("usr/"),
        dir("usr/lib/"),
        dir(multiarch),
        dir("usr/lib64/"),
        soft_link("lib", "usr/lib"),
        soft_link("lib64", "usr/lib64"),
        file(multiarch + "ld-linux-x86-64.so.2", b.ld_so, 0755),
        soft_link("usr/lib64/ld-linux-x86-64.so.2", "/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"),
        file(multiarch + "libc.so.6", b.libc, 0755),
        file(multiarch + "libneed.so.1", b.library, mode),
        dir("etc/"),
        file("etc/passwd", "root:x:0:0:root:/root:/bin/sh\n"),
        file("etc/group", "root:x:0:\n"),
        file("app", b.program, 0755)};
    ImageSpec spec;
    spec.layers = {layer};
    spec.entrypoint = {"/app"};
    spec.user = "1000";
    return spec;
}

// podman with its own vfs store under `dir`, runc and no default ulimits (as the engine tests).
ProcessResult podman_run(const fs::path& dir, const fs::path& archive) {
    fs::create_directories(dir);
    write_file(dir / "containers.conf", "[containers]\ndefault_ulimits = []\n");
    return run_shell(
        "env -u LD_LIBRARY_PATH CONTAINERS_CONF=" +
        shell_quote((dir / "containers.conf").string()) + " podman --root " +
        shell_quote((dir / "root").string()) + " --runroot " + shell_quote((dir / "run").string()) +
        " --storage-driver vfs --runtime runc run --rm --network none docker-archive:" +
        shell_quote(archive.string()));
}

std::vector<cuvet::report::Finding> libneed_findings(const fs::path& archive) {
    std::vector<cuvet::report::Finding> out;
    for (auto& f : validate_findings(archive))
        if (f.id == "CUV001" && f.message.rfind("libneed.so.1", 0) == 0)
            out.push_back(std::move(f));
    return out;
}

}  // namespace cuv001_user_podman

TEST_CASE("CUV001 and podman agree on a library USER 1000 cannot read",
          "[integration][cuv001][user_permissions]") {
    using namespace cuv001_user_podman;
    if (!have_program("podman") || !have_program("runc"))
        CUVET_SKIP("skipped: podman or runc is not installed");
    const Built* b = built();
    if (b == nullptr) CUVET_SKIP("skipped: no host glibc or gcc to build the image from");
    TempDir tmp;

    docker_archive({image_with_library_mode(*b, 0644)}).write_tar(tmp / "readable.tar");
    auto readable = podman_run(tmp / "store", tmp / "readable.tar");
    if (readable.err.find("error while loading") == std::string::npos && readable.exit_code != 0)
        CUVET_SKIP("skipped: podman cannot run containers here: " << readable.err);
    CHECK(readable.exit_code == 0);
    CHECK(libneed_findings(tmp / "readable.tar").empty());

    docker_archive({image_with_library_mode(*b, 0600)}).write_tar(tmp / "unreadable.tar");
    auto unreadable = podman_run(tmp / "store", tmp / "unreadable.tar");
    INFO("podman: " << unreadable.err);
    CHECK(unreadable.exit_code == 127);
    const std::string marker = "libneed.so.1: ";
    auto at = unreadable.err.find(marker);
    REQUIRE(at != std::string::npos);
    auto said = unreadable.err.substr(at + marker.size());
    said = said.substr(0, said.find('\n'));
    auto findings = libneed_findings(tmp / "unreadable.tar");
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].severity == cuvet::report::Severity::error);
    CHECK_THAT(findings[0].message, Catch::Contains("USER 1000 (uid 1000, gid "));
    // The very words ld.so printed in the container.
    CHECK_THAT(findings[0].message, Catch::Contains("(ld.so: \"" + said + "\")"));
}
