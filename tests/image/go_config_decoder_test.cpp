// Issue 33: the config is read as Go's encoding/json reads it into the OCI image struct
// (docker, containerd, podman): keys fold case, the last match wins, repeated objects merge.
// A config that JSON lookups read one way and the runtime another is validated as it runs.
#include "image/config/go_config_decoder.hpp"

#include "image/image_fixtures.hpp"

using namespace cuvet::test;
using cuvet::image::decode_go_image_config;
using nlohmann::json;

namespace {

json decode(const std::string& text) { return decode_go_image_config(text, "config.json"); }

// A docker archive whose config is `config_text` exactly (duplicate keys survive no JSON DOM).
std::filesystem::path archive_with_config(const TempDir& tmp, const std::string& config_text) {
    ImageSpec spec = two_layer_spec();
    // Legacy layout: a Docker 25 index.json would still name the config first written.
    ImageFiles files = docker_archive({spec}, DockerLayout::legacy);
    files.files["config.json"] = config_text;
    files.edit_json("manifest.json", [](json& m) { m[0]["Config"] = "config.json"; });
    auto path = tmp / "image.tar";
    files.write_tar(path);
    return path;
}

std::string config_text(const std::string& run_config) {
    const auto base = encode_image(two_layer_spec());
    json config = json::parse(base.config.bytes);
    std::string rootfs = config["rootfs"].dump();
    return R"({"architecture":"amd64","os":"linux","rootfs":)" + rootfs + R"(,"config":{)" +
           run_config + "}}";
}

}  // namespace

TEST_CASE("go config: keys match case-insensitively and the last match wins", "[image][config]") {
    auto config = decode(R"({"config":{"Entrypoint":["/bin/true"],"entrypoint":["/usr/bin/app"],
        "Cmd":["a"],"CMD":["b"],"cmd":null,"Env":["A=1"],"ENV":["A=2"],"env":["A=3"],"Env":["A=4"],
        "User":"root","USER":"1000","user":null}})");
    CHECK(config["config"]["Entrypoint"] == json::array({"/usr/bin/app"}));
    CHECK_FALSE(config["config"].contains("Cmd"));           // null clears a list
    CHECK(config["config"]["Env"] == json::array({"A=4"}));  // document order, exact dups too
    CHECK(config["config"]["User"] == "1000");               // null leaves a string
}

TEST_CASE("go config: Go's Unicode folding and repeated objects merging", "[image][config]") {
    // U+212A KELVIN SIGN folds to 'k', U+017F LONG S to 's': "Wor\u212Aingdir", "U\u017Fer".
    auto config = decode(
        "{\"config\":{\"Entrypoint\":[\"/a\"],\"Labels\":{\"x\":\"1\"}},"
        "\"CONFIG\":{\"Wor\xE2\x84\xAAingDir\":\"/w\",\"U\xC5\xBF"
        "er\":\"nobody\","
        "\"labels\":{\"y\":\"2\"}},\"ROOTFS\":{\"DIFF_IDS\":[\"sha256:1\"]}}");
    CHECK(config["config"]["Entrypoint"] == json::array({"/a"}));
    CHECK(config["config"]["WorkingDir"] == "/w");
    CHECK(config["config"]["User"] == "nobody");
    CHECK(config["config"]["Labels"] == json({{"x", "1"}, {"y", "2"}}));
    CHECK(config["rootfs"]["diff_ids"] == json::array({"sha256:1"}));
    // Other non-ASCII never folds: "Ｅnv" (fullwidth E) is no field.
    CHECK_FALSE(decode("{\"config\":{\"\xEF\xBC\xA5nv\":[\"A=1\"]}}")["config"].contains("Env"));
}

TEST_CASE("go config: a value of the wrong type fails as Unmarshal does", "[image][config]") {
    CHECK_THROWS_WITH(decode(R"({"config":{"entrypoint":"/bin/sh"}})"),
                      Catch::Contains("\"Entrypoint\" must be an array of strings"));
    CHECK_THROWS_WITH(decode(R"({"Config":[]})"), Catch::Contains("\"config\" must be an object"));
    CHECK_THROWS_WITH(decode(R"({"config":{}} x)"), Catch::Contains("bad JSON"));
    // Deep nesting in a field no one reads costs no recursion.
    std::string deep =
        R"({"container_config":)" + std::string(100000, '[') + std::string(100000, ']') + "}";
    CHECK(decode(deep).is_object());
}

TEST_CASE("go config: cuvet image shows the entrypoint, Cmd and Env the runtime runs",
          "[image][config]") {
    TempDir tmp;
    auto image = archive_with_config(
        tmp,
        config_text(R"("Entrypoint":["/bin/true"],"entrypoint":["/opt/app.py"],)"
                    R"("Cmd":["x"],"CMD":["y"],)"
                    R"("Env":["PATH=/usr/bin"],"ENV":["PATH=/usr/bin","LD_LIBRARY_PATH=/o"])"));
    auto summary = image_summary(image);
    REQUIRE_FALSE(summary.is_null());
    CHECK(summary["entrypoint"] == json::array({"/opt/app.py"}));
    CHECK(summary["cmd"] == json::array({"y"}));
    CHECK(summary["env"] == json::array({"PATH=/usr/bin", "LD_LIBRARY_PATH=/o"}));
}
