// `cuvet inventory --format cyclonedx`: valid against the official CycloneDX 1.6
// schema (vendored in tests/report/data/cyclonedx), with purls, file hashes and
// the properties docs/inventory-schema.md promises.
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "image/storage/sha256.hpp"
#include "support/process.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"

using namespace cuvet::test;
namespace fs = std::filesystem;

namespace {

const nlohmann::json* component_named(const nlohmann::json& bom, const std::string& purl) {
    for (const auto& c : bom["components"])
        if (c.value("purl", "") == purl) return &c;
    return nullptr;
}

std::string property(const nlohmann::json& item, const std::string& name) {
    for (const auto& p : item.value("properties", nlohmann::json::array()))
        if (p["name"] == name) return p["value"];
    return "";
}

}  // namespace

TEST_CASE("inventory --format cyclonedx: the sample image's BOM validates against CycloneDX 1.6",
          "[inventory][cyclonedx]") {
    const auto sample = fs::path(CUVET_BUILD_DIR) / "testdata" / "sample-image.tar";
    if (!fs::exists(sample)) {
        CUVET_SKIP("no sample image built");
    }
    const auto r = run_cuvet({"inventory", sample.string(), "--format", "cyclonedx"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(run_cuvet({"inventory", sample.string(), "--format", "cyclonedx", "--no-cache"}).out ==
          r.out);  // deterministic
    TempDir dir;
    const auto path = dir / "bom.json";
    write_file(path, r.out);
    const std::string validator =
        std::string(CUVET_SOURCE_DIR) + "/tests/report/validate_cyclonedx.py";
    if (!have_program("python3")) {
        CUVET_SKIP("no python3");
    }
    const auto valid =
        run_shell("python3 " + shell_quote(validator) + " " + shell_quote(path.string()));
    if (valid.exit_code == 77) {
        CUVET_SKIP("python3 has no jsonschema module (python3-jsonschema)");
    }
    INFO(valid.out << valid.err);
    CHECK(valid.exit_code == 0);

    const auto bom = nlohmann::json::parse(r.out);
    CHECK(bom["specVersion"] == "1.6");
    CHECK(property(bom["metadata"], "cuvet:driver-floor") == "525.60.13");
    // The wheel's cuDNN: a pypi purl, its one file hashed, its soname.
    const auto* wheel = component_named(bom, "pkg:pypi/nvidia-cudnn-cu12@8.9.2.26");
    REQUIRE(wheel != nullptr);
    const std::string lib =
        std::string(CUVET_BUILD_DIR) + "/testdata/sample-libs/libcudnn.so.8.9.2";
    const std::string digest = cuvet::image::sha256_digest(read_file(lib));
    REQUIRE((*wheel)["hashes"].size() == 1);
    CHECK("sha256:" + (*wheel)["hashes"][0]["content"].get<std::string>() == digest);
    CHECK(property(*wheel, "cuvet:sonames") == "libcudnn.so.8");
    REQUIRE((*wheel)["components"].size() == 1);
    CHECK((*wheel)["components"][0]["type"] == "file");
    // The system cuDNN: a deb purl with the Debian version, percent-encoded.
    CHECK(component_named(bom,
                          "pkg:deb/ubuntu/libcudnn8@8.6.0.163-1%2Bcuda11.8?distro=ubuntu-22.04") !=
          nullptr);
    // The runtime the image runs carries the driver floor.
    bool floor = false;
    for (const auto& c : bom["components"])
        floor =
            floor || (c["name"] == "cudart" && property(c, "cuvet:driver-floor") == "525.60.13");
    CHECK(floor);
}
