// The results folder: one file per digest, never half written, temporary files ignored.
#include "cuvet/fleet/result_store.hpp"

#include <catch2/catch.hpp>

#include "cuvet/core/error.hpp"
#include "support/temp_dir.hpp"

using namespace cuvet;
using namespace cuvet::test;

TEST_CASE("fleet results: written whole under the digest's name, temporary files ignored",
          "[fleet]") {
    TempDir dir;
    const fleet::ResultStore store(dir / "out");
    const std::string key = "sha256:" + std::string(64, 'a');
    CHECK_FALSE(store.has(key));
    nlohmann::json result = {{"schema", fleet::result_schema}, {"key", key}, {"verdict", "pass"}};
    store.write(key, result);
    CHECK(store.has(key));
    CHECK(store.path_for(key).filename() == "sha256-" + std::string(64, 'a') + ".json");
    // What a worker killed mid-write leaves behind.
    write_file(dir / "out" / (".sha256-" + std::string(64, 'b') + ".json.tmp123"), "{\"sche");
    const auto results = fleet::read_results(dir / "out");
    REQUIRE(results.size() == 1);
    CHECK(results[0]["key"] == key);
    CHECK(std::distance(std::filesystem::directory_iterator(dir / "out"),
                        std::filesystem::directory_iterator{}) == 2);

    write_file(dir / "out" / "sha256-bad.json", "{\"schema\": \"other\"}");
    try {
        fleet::read_results(dir / "out");
        FAIL("a foreign file was read as a result");
    } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::input);
        CHECK(std::string(e.what()) ==
              (dir / "out" / "sha256-bad.json").string() +
                  ": not a cuvet fleet result (schema cuvet-fleet-result)");
    }
    write_file(dir / "file", "");
    CHECK_THROWS_AS(fleet::ResultStore(dir / "file"), Error);
}
