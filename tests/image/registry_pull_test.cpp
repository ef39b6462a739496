// Images read straight from a real docker-registry (plain HTTP and TLS) must
// be exactly the images skopeo pushed: same merged view as their OCI layout,
// same findings as their docker-save tar.
#include "image/registry_fixtures.hpp"
#include "support/sample_image.hpp"
#include "support/skip.hpp"

using namespace cuvet::test;

TEST_CASE("a plain-HTTP registry serves the same merged view as the OCI layout",
          "[integration][image][registry]") {
    REQUIRE_REGISTRY_TOOLS();
    RegistryServer registry;
    TempDir tmp;
    auto layout = push_image(registry, tmp, two_layer_spec(), "cuvet/test:two");

    auto from_layout = list_files(layout);
    auto from_registry = list_files(registry.url("cuvet/test:two"), {"--insecure"});
    INFO("cuvet: " << from_registry.result.err);
    REQUIRE(from_registry.result.exit_code == 0);
    REQUIRE(!from_layout.files.empty());
    CHECK(diff_views(from_layout.files, from_registry.files) == "");

    auto summary = image_summary(registry.url("cuvet/test:two"), {"--insecure"});
    REQUIRE(summary.is_object());
    CHECK(summary.dump().find("FOO=bar") != std::string::npos);
}

TEST_CASE("a registry image pinned by digest, and a digest that is not there",
          "[integration][image][registry]") {
    REQUIRE_REGISTRY_TOOLS();
    RegistryServer registry;
    TempDir tmp;
    auto layout = push_image(registry, tmp, two_layer_spec(), "cuvet/test:two");
    auto summary = image_summary(registry.url("cuvet/test:two"), {"--insecure"});
    REQUIRE(summary.is_object());
    std::string digest = summary.value("manifest_digest", "");
    if (digest.empty())
        digest = run_shell("skopeo inspect --tls-verify=false --format '{{.Digest}}' " +
                           shell_quote(registry.url("cuvet/test:two")))
                     .out;
    while (!digest.empty() && digest.back() == '\n') digest.pop_back();
    REQUIRE(digest.rfind("sha256:", 0) == 0);

    auto pinned = list_files(registry.url("cuvet/test@" + digest), {"--insecure"});
    INFO("cuvet: " << pinned.result.err);
    CHECK(pinned.result.exit_code == 0);
    CHECK(diff_views(list_files(layout).files, pinned.files) == "");

    std::string absent = "sha256:" + std::string(64, 'a');
    require_bad_input(run_cuvet({"files", "--insecure", registry.url("cuvet/test@" + absent)}),
                      "not found");
    require_bad_input(run_cuvet({"files", "--insecure", registry.url("cuvet/test:nope")}),
                      registry.host() + "/cuvet/test:nope");
    require_bad_input(run_cuvet({"files", "--insecure", registry.url("cuvet/nothing:1")}),
                      "HTTP 404");
}

TEST_CASE("a multi-arch index in a registry is resolved with --platform",
          "[integration][image][registry]") {
    REQUIRE_REGISTRY_TOOLS();
    RegistryServer registry;
    TempDir tmp;
    ImageSpec amd = single_layer_spec({file("arch", "amd64\n")});
    ImageSpec arm = single_layer_spec({file("arch", "arm64/v8\n")});
    arm.architecture = "arm64";
    arm.variant = "v8";
    oci_layout({oci_index({oci_image(amd), oci_image(arm)}, "multi")}).write_dir(tmp / "oci");
    auto pushed = registry.push("oci:" + (tmp / "oci").string() + ":multi", "cuvet/multi:1", true);
    INFO("skopeo: " << pushed.err);
    REQUIRE(pushed.exit_code == 0);

    auto cat = [&](const std::vector<std::string>& extra) {
        std::vector<std::string> args = {"files", "--insecure", "--long", "--format", "json"};
        args.insert(args.end(), extra.begin(), extra.end());
        args.push_back(registry.url("cuvet/multi:1"));
        return run_cuvet(args);
    };
    auto amd_view = list_files(registry.url("cuvet/multi:1"), {"--insecure"});
    auto arm_view =
        list_files(registry.url("cuvet/multi:1"), {"--insecure", "--platform", "linux/arm64"});
    REQUIRE(amd_view.result.exit_code == 0);
    REQUIRE(arm_view.result.exit_code == 0);
    CHECK(amd_view.at("/arch").size == 6);
    CHECK(arm_view.at("/arch").size == 9);
    auto amd_image = image_summary(registry.url("cuvet/multi:1"), {"--insecure"});
    auto arm_image = image_summary(registry.url("cuvet/multi:1"),
                                   {"--insecure", "--platform", "linux/arm64/v8"});
    REQUIRE(amd_image.is_object());
    REQUIRE(arm_image.is_object());
    CHECK(amd_image.dump().find("amd64") != std::string::npos);
    CHECK(arm_image.dump().find("arm64") != std::string::npos);
    CHECK(amd_image.value("manifest_digest", "x") != arm_image.value("manifest_digest", "y"));

    auto missing = cat({"--platform", "linux/s390x"});
    CHECK(missing.exit_code == 2);
    CHECK(missing.err.find("linux/arm64/v8") != std::string::npos);
}

TEST_CASE(
    "a TLS registry with a private CA: trusted via SSL_CERT_FILE, refused without, --insecure "
    "accepts",
    "[integration][image][registry]") {
    REQUIRE_REGISTRY_TOOLS();
    RegistryServer registry({.tls = true});
    TempDir tmp;
    auto layout = push_image(registry, tmp, two_layer_spec(), "cuvet/test:tls");
    const std::string url = registry.url("cuvet/test:tls");

    auto trusted = run_cuvet_with({"SSL_CERT_FILE=" + registry.ca_file().string()}, {"files", url});
    INFO("trusted: " << trusted.err);
    CHECK(trusted.exit_code == 0);
    CHECK(trusted.out == run_cuvet({"files", layout.string()}).out);

    auto refused = run_cuvet_with({"SSL_CERT_FILE=/dev/null"}, {"files", url});
    require_bad_input(refused, "--insecure");
    CHECK(refused.err.find(url) != std::string::npos);

    auto insecure = run_cuvet_with({"SSL_CERT_FILE=/dev/null"}, {"files", "--insecure", url});
    CHECK(insecure.exit_code == 0);
    CHECK(insecure.out == trusted.out);
}

TEST_CASE("validate from a registry gives the findings of the same image's tar",
          "[integration][image][registry]") {
    REQUIRE_REGISTRY_TOOLS();
    const auto sample = built_sample_image();
    if (sample.empty()) {
        CUVET_SKIP("skipped: the sample image is not built");
    }
    RegistryServer registry;
    auto pushed = registry.push("docker-archive:" + sample.string(), "cuvet/sample:1");
    INFO("skopeo: " << pushed.err);
    REQUIRE(pushed.exit_code == 0);

    auto from_tar = run_cuvet({"validate", "--format", "json", sample.string()});
    auto from_registry =
        run_cuvet({"validate", "--insecure", "--format", "json", registry.url("cuvet/sample:1")});
    INFO("registry: " << from_registry.err);
    CHECK(from_registry.exit_code == from_tar.exit_code);
    auto expected = findings_of(from_tar);
    REQUIRE(expected.is_array());
    CHECK(!expected.empty());
    CHECK(findings_of(from_registry) == expected);
}
