// Images in a local daemon, read through the Docker Engine API that podman's
// `system service` speaks (dockerd is not in these tests: Debian's docker.io
// needs iptables and a bridge it may not get here), and containers-storage
// through skopeo. The export streams into the layer reader; the view must
// equal the image's OCI layout, and validate must equal validate of the tar.
#include "image/registry_fixtures.hpp"
#include "support/podman_service.hpp"
#include "support/skip.hpp"

using namespace cuvet::test;

TEST_CASE("docker-daemon: through podman's API socket equals the OCI layout",
          "[integration][image][daemon]") {
    if (!PodmanService::available()) {
        CUVET_SKIP("skipped: podman or skopeo is not installed");
    }
    PodmanService podman;
    TempDir tmp;
    oci_layout({oci_image(two_layer_spec(), "t")}).write_dir(tmp / "oci");
    auto loaded = podman.load("oci:" + (tmp / "oci").string() + ":t", "localhost/cuvet/test:1");
    INFO("skopeo: " << loaded.err);
    REQUIRE(loaded.exit_code == 0);
    const std::string expected = run_cuvet({"files", "--long", (tmp / "oci").string()}).out;
    const std::string host = "DOCKER_HOST=" + podman.docker_host();

    auto daemon =
        run_cuvet_with({host}, {"files", "--long", "docker-daemon:localhost/cuvet/test:1"});
    INFO("daemon: " << daemon.err);
    CHECK(daemon.exit_code == 0);
    CHECK(daemon.out == expected);

    // A bare REPO:TAG that names no file is looked up in the daemon first.
    auto bare = run_cuvet_with({host}, {"files", "--long", "localhost/cuvet/test:1"});
    INFO("bare: " << bare.err);
    CHECK(bare.exit_code == 0);
    CHECK(bare.out == expected);

    auto summary = run_cuvet_with(
        {host}, {"image", "--format", "json", "docker-daemon:localhost/cuvet/test:1"});
    CHECK(summary.exit_code == 0);
    CHECK(summary.out.find("FOO=bar") != std::string::npos);

    auto storage = run_cuvet({"files", "--long", podman.storage("localhost/cuvet/test:1")});
    INFO("containers-storage: " << storage.err);
    CHECK(storage.exit_code == 0);
    CHECK(storage.out == expected);

    require_bad_input(run_cuvet_with({host}, {"files", "docker-daemon:localhost/cuvet/none:1"}),
                      "not found");
    require_bad_input(run_cuvet({"files", podman.storage("localhost/cuvet/none:1")}),
                      "localhost/cuvet/none:1");
}

TEST_CASE("validate from the daemon gives the findings of the tar",
          "[integration][image][daemon]") {
    if (!PodmanService::available()) {
        CUVET_SKIP("skipped: podman or skopeo is not installed");
    }
    const std::filesystem::path sample =
        std::filesystem::path(CUVET_BUILD_DIR) / "testdata/sample-image.tar";
    if (!std::filesystem::exists(sample)) {
        CUVET_SKIP("skipped: the sample image is not built");
    }
    PodmanService podman;
    auto loaded = podman.load("docker-archive:" + sample.string(), "localhost/cuvet/sample:1");
    INFO("skopeo: " << loaded.err);
    REQUIRE(loaded.exit_code == 0);
    auto from_tar = run_cuvet({"validate", "--format", "json", sample.string()});
    auto from_daemon =
        run_cuvet_with({"DOCKER_HOST=" + podman.docker_host()},
                       {"validate", "--format", "json", "docker-daemon:localhost/cuvet/sample:1"});
    INFO("daemon: " << from_daemon.err);
    CHECK(from_daemon.exit_code == from_tar.exit_code);
    auto findings = [](const std::string& text) {
        auto report = nlohmann::json::parse(text, nullptr, false);
        return report.is_object() ? report.value("findings", nlohmann::json()) : nlohmann::json();
    };
    REQUIRE(findings(from_tar.out).is_array());
    CHECK(findings(from_daemon.out) == findings(from_tar.out));
}
