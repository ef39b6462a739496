// Inputs that must end in one clear error rather than a clean verdict on
// nothing: a directory with no image, a typo'd file name, FIFOs where files
// belong, a config whose diff_ids describe other layers, a platform the
// archive is not for, a rootfs this user cannot read whole, and a file
// swapped for a symlink while the scan reads it.
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>

#include "cuvet/core/error.hpp"
#include "cuvet/image/image.hpp"
#include "image/image_fixtures.hpp"
#include "support/http_test_server.hpp"
#include "support/skip.hpp"

using namespace cuvet::test;
namespace fs = std::filesystem;

namespace {

// cuvet under `timeout`: a hang is a failure with exit 124, not a stuck suite.
ProcessResult run_cuvet_bounded(const std::vector<std::string>& args,
                                const std::string& prefix = "") {
    std::string command = prefix + "timeout 60 " + shell_quote(CUVET_BINARY_PATH);
    for (const auto& arg : args) command += " " + shell_quote(arg);
    return run_shell(command);
}

void make_fifo(const fs::path& path) {
    fs::create_directories(path.parent_path());
    fs::remove(path);
    REQUIRE(::mkfifo(path.c_str(), 0644) == 0);
}

}  // namespace

TEST_CASE("a directory that holds no image is 'no image found', exit 3", "[image][fail-closed]") {
    TempDir tmp;
    fs::create_directories(tmp / "empty");
    require_bad_input(run_cuvet({"validate", (tmp / "empty").string()}), "no image found");

    write_file(tmp / "project/README.md", "# notes\n");
    write_file(tmp / "project/src/main.c", "int main(void) { return 0; }\n");
    require_bad_input(run_cuvet({"validate", (tmp / "project").string()}), "no image found");
    require_bad_input(run_cuvet({"files", (tmp / "project").string()}), "no image found");

    // One top-level directory of an OS root is enough to be scanned as one.
    write_file(tmp / "root/usr/lib/notes.txt", "x\n");
    auto root = run_cuvet({"files", (tmp / "root").string()});
    CHECK(root.exit_code == 0);
    CHECK(root.out.find("/usr/lib/notes.txt") != std::string::npos);
}

TEST_CASE("a file name that does not exist is 'no such file', never a registry pull",
          "[image][fail-closed]") {
    TempDir tmp;
    // Every network path cuvet could take goes through this proxy or to missing sockets.
    std::atomic<int> contacted{0};
    HttpTestServer proxy([&](const HttpRequestHead&) {
        ++contacted;
        HttpAction refuse;
        refuse.response = http_response(403, "");
        return refuse;
    });
    const std::string proxy_url = "http://127.0.0.1:" + std::to_string(proxy.port());
    const std::string env = "cd " + shell_quote(tmp.path().string()) +
                            " && env NO_PROXY= no_proxy= https_proxy=" + proxy_url +
                            " HTTPS_PROXY=" + proxy_url + " http_proxy=" + proxy_url +
                            " DOCKER_HOST=unix://" + (tmp / "none.sock").string() +
                            " CONTAINER_HOST=unix://" + (tmp / "none.sock").string() +
                            " XDG_RUNTIME_DIR=" + tmp.path().string() + " ";
    for (std::string name :
         {"myimage:v1.tar", "./myimage:v1", "out/myimage:v1.oci", "myimage:v1.tar.gz"}) {
        INFO(name);
        auto result = run_cuvet_bounded({"validate", name}, env);
        require_bad_input(result, "no such file");
        CHECK(contacted.load() == 0);
    }
    // The control: a bare REPO:TAG is a reference and does reach for the registry.
    auto reference = run_cuvet_bounded({"files", "myimage:v1"}, env);
    CHECK(reference.exit_code == 3);
    CHECK(contacted.load() > 0);
}

TEST_CASE("a FIFO where an image file belongs is refused at once, never read",
          "[image][fail-closed]") {
    TempDir tmp;
    SECTION("index.json of an OCI layout") {
        oci_layout({oci_image(two_layer_spec())}).write_dir(tmp / "oci");
        make_fifo(tmp / "oci/index.json");
        require_bad_input(run_cuvet_bounded({"files", (tmp / "oci").string()}), "index.json");
        CHECK(run_cuvet_bounded({"files", (tmp / "oci").string()}).err.find("not a regular file") !=
              std::string::npos);
    }
    SECTION("manifest.json of an unpacked docker save") {
        docker_archive({two_layer_spec()}).write_dir(tmp / "docker");
        make_fifo(tmp / "docker/manifest.json");
        require_bad_input(run_cuvet_bounded({"files", (tmp / "docker").string()}), "manifest.json");
    }
    SECTION("a layer blob") {
        ImageFiles files = oci_layout({oci_image(two_layer_spec())});
        const std::string layer = files.images[0].layers[0];
        files.write_dir(tmp / "oci");
        make_fifo(tmp / "oci" / layer);
        auto result = run_cuvet_bounded({"files", (tmp / "oci").string()});
        require_bad_input(result, layer);
        CHECK(result.err.find("not a regular file") != std::string::npos);
    }
    SECTION("a FIFO entry named manifest.json inside a docker-save tar") {
        TarEntry fifo;
        fifo.name = "manifest.json";
        fifo.type = TarEntry::Type::fifo;
        write_file(tmp / "fifo.tar", make_tar({fifo}));
        require_bad_input(run_cuvet_bounded({"files", (tmp / "fifo.tar").string()}),
                          "manifest.json");
    }
    SECTION("the rootfs file a scan selects") {
        write_file(tmp / "root/etc/os-release", "ID=debian\n");
        make_fifo(tmp / "root/usr/lib/libcudart.so.12");
        // The walk never opens a FIFO: it is listed as what it is.
        auto result = run_cuvet_bounded({"files", "--long", (tmp / "root").string()});
        CHECK(result.exit_code == 0);
        CHECK(result.out.find("fifo") != std::string::npos);
        CHECK(run_cuvet_bounded({"validate", (tmp / "root").string()}).exit_code != 124);
    }
}

TEST_CASE("docker save's blobs layout: layers are checked against the config's diff_ids",
          "[image][fail-closed][digest]") {
    TempDir tmp;
    ImageSpec spec =
        single_layer_spec({file("etc/hostname", "box\n"), file("usr/lib/libx.so.1", "x")});
    ImageFiles files = docker_archive({spec}, DockerLayout::blobs);
    const std::string layer = files.images[0].layers[0];
    // The config now describes another layer; its own blob is renamed to its
    // new digest so that only the diff_id is wrong.
    const std::string old_config = files.images[0].config;
    files.edit_json(old_config, [](nlohmann::json& config) {
        config["rootfs"]["diff_ids"][0] = "sha256:" + std::string(64, 'e');
    });
    const std::string new_config = "blobs/sha256/" + sha256_hex(files.files[old_config]);
    files.files[new_config] = files.files[old_config];
    files.files.erase(old_config);
    files.edit_json("manifest.json",
                    [&](nlohmann::json& manifest) { manifest[0]["Config"] = new_config; });
    files.write_tar(tmp / "image.tar");
    auto result = run_cuvet({"validate", (tmp / "image.tar").string()});
    require_bad_input(result, layer);
    CHECK(result.err.find("diff_id") != std::string::npos);
    CHECK(result.err.find(std::string(64, 'e')) != std::string::npos);
    CHECK(run_cuvet({"files", "--no-verify", (tmp / "image.tar").string()}).exit_code == 0);
}

TEST_CASE("option --platform on a single-platform docker archive it is not for is refused",
          "[image][fail-closed]") {
    TempDir tmp;
    auto tar = write_docker(tmp, two_layer_spec());
    auto wrong = run_cuvet({"files", "--platform", "linux/arm64", tar.string()});
    CHECK(wrong.exit_code == 2);
    CHECK(wrong.err.find("image is for linux/amd64, not linux/arm64") != std::string::npos);
    CHECK(run_cuvet({"files", "--platform", "linux/amd64", tar.string()}).exit_code == 0);
    CHECK(run_cuvet({"files", tar.string()}).exit_code == 0);
}

TEST_CASE("a rootfs read as a user who cannot read all of it: an error, or CUV017 when allowed",
          "[image][fail-closed]") {
    if (::geteuid() != 0 || !have_program("setpriv")) {
        CUVET_SKIP("needs root and setpriv to scan as uid 65534");
    }
    TempDir tmp;
    fs::permissions(tmp.path(), fs::perms::owner_all | fs::perms::group_read |
                                    fs::perms::group_exec | fs::perms::others_read |
                                    fs::perms::others_exec);
    const fs::path root = tmp / "root";
    write_file(root / "etc/os-release", "ID=debian\n");
    write_file(root / "usr/lib/x86_64-linux-gnu/libz.so.1", "not really\n");
    write_file(root / "opt/secret/lib/libcudnn.so.9", "hidden\n");
    fs::permissions(root / "opt/secret", fs::perms::owner_all);
    const std::string as_nobody =
        "setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/nonexistent ";

    auto strict = run_cuvet_bounded({"validate", "--no-cache", root.string()}, as_nobody);
    require_bad_input(strict, (root / "opt/secret").string());
    CHECK(strict.err.find("--allow-partial") != std::string::npos);
    require_bad_input(run_cuvet_bounded({"files", root.string()}, as_nobody), "opt/secret");

    auto partial = run_cuvet_bounded(
        {"validate", "--no-cache", "--allow-partial", "--format", "json", root.string()},
        as_nobody);
    INFO(partial.err);
    CHECK(partial.exit_code == 1);
    auto report = nlohmann::json::parse(partial.out, nullptr, false);
    REQUIRE(report.is_object());
    bool named = false;
    for (const auto& finding : report["findings"])
        if (finding["id"] == "CUV017" && finding["severity"] == "error" &&
            finding["message"].get<std::string>().find("/opt/secret") != std::string::npos)
            named = true;
    CHECK(named);

    // As root the same tree is read whole: no CUV017.
    auto whole =
        run_cuvet({"validate", "--no-cache", "--allow-partial", "--format", "json", root.string()});
    CHECK(whole.out.find("CUV017") == std::string::npos);
}

TEST_CASE("a rootfs file swapped for a symlink before it is opened is refused, not followed",
          "[image][fail-closed]") {
    TempDir tmp;
    const fs::path root = tmp / "root";
    write_file(root / "etc/app.conf", "inside\n");
    write_file(tmp / "outside-secret", "SECRET OUTSIDE THE ROOT\n");
    auto image = cuvet::image::open_image(root, {});
    std::string seen;
    cuvet::image::ScanOptions scan;
    // select() runs between the walk's lstat and its open: the attacker's window.
    scan.select = [&](const cuvet::image::FileEntry& entry) {
        if (entry.path != "/etc/app.conf") return false;
        fs::remove(root / "etc/app.conf");
        fs::create_symlink(tmp / "outside-secret", root / "etc/app.conf");
        return true;
    };
    scan.on_content = [&](const cuvet::image::FileEntry&, std::string_view bytes) { seen = bytes; };
    try {
        image->scan(scan);
        FAIL("the scan followed the swapped-in link");
    } catch (const cuvet::Error& e) {
        CHECK(std::string(e.what()).find("/etc/app.conf: changed while it was scanned") !=
              std::string::npos);
    }
    CHECK(seen.find("SECRET") == std::string::npos);

    // The same walk without a swap reads the file.
    write_file(tmp / "root2/etc/app.conf", "inside\n");
    scan.select = [](const cuvet::image::FileEntry& entry) {
        return entry.path == "/etc/app.conf";
    };
    cuvet::image::open_image(tmp / "root2", {})->scan(scan);
    CHECK(seen == "inside\n");
}
