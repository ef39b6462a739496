// `cuvet rules` and `cuvet explain`, run as the real binary.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cuvet/rules/database.hpp"
#include "cuvet/rules/embedded.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

using namespace cuvet;

TEST_CASE("cuvet rules lists every check and fact table", "[cli][rules]") {
    auto result = test::run_cuvet({"rules"});
    INFO(result.err);
    REQUIRE(result.exit_code == 0);
    for (const char* expected : {"CUV001", "CUV014", "cuda_drivers", "cudnn", "frameworks", "gpus",
                                 "sonames", "nvidia_cuda_tags", "(built-in)"}) {
        INFO(expected);
        CHECK(result.out.find(expected) != std::string::npos);
    }
}

TEST_CASE("cuvet rules shows each table's newest entry and data date", "[cli][rules]") {
    auto db = rules::Database::load();
    auto result = test::run_cuvet({"rules"});
    REQUIRE(result.exit_code == 0);
    for (const auto& table : db.tables()) {
        if (table.newest.empty()) continue;
        std::string line =
            table.name + ": newest " + table.newest + " (data " + table.data_date + ")";
        INFO(line);
        CHECK(result.out.find(line) != std::string::npos);
    }
    CHECK(result.out.find("cuda_drivers: newest 13.") != std::string::npos);
    auto json = nlohmann::json::parse(test::run_cuvet({"rules", "--format", "json"}).out);
    for (const auto& table : json["tables"]) {
        INFO(table["name"]);
        CHECK(table["data_date"].get<std::string>().size() == 10);
    }
}

TEST_CASE("cuvet rules --format json", "[cli][rules]") {
    auto result = test::run_cuvet({"rules", "--format", "json"});
    REQUIRE(result.exit_code == 0);
    auto doc = nlohmann::json::parse(result.out);
    CHECK(doc["tables"].size() == cuvet::rules::Database::table_names().size());
    for (const auto& table : doc["tables"])
        CHECK_FALSE(table["data_version"].get<std::string>().empty());
    bool found = false;
    for (const auto& check : doc["checks"])
        found |= check["id"] == "CUV009" && check["kind"] == "validate";
    CHECK(found);
}

TEST_CASE("cuvet rules --rules-dir reports a bad file with its JSON pointer", "[cli][rules]") {
    test::TempDir dir;
    test::write_file(dir / "gpus.json", R"({"table": "gpus", "data_version": 3})");
    auto result = test::run_cuvet({"rules", "--rules-dir", dir.path().string()});
    CHECK(result.exit_code == 3);
    CHECK(result.err ==
          "cuvet: error: " + (dir / "gpus.json").string() + ": /data_version: expected a string\n");
}

TEST_CASE("cuvet explain prints why, examples and fix", "[cli][explain]") {
    auto result = test::run_cuvet({"explain", "cuv010"});
    REQUIRE(result.exit_code == 0);
    CHECK(result.out.rfind("CUV010 no-kernel-for-gpu (error)\n", 0) == 0);
    for (const char* section :
         {"\nWhy:\n", "\nFails:\n", "\nPasses:\n", "\nFix:\n", "no kernel image is available"}) {
        INFO(section);
        CHECK(result.out.find(section) != std::string::npos);
    }
    auto json = test::run_cuvet({"explain", "CUV010", "--format", "json"});
    REQUIRE(json.exit_code == 0);
    CHECK(nlohmann::json::parse(json.out)["name"] == "no-kernel-for-gpu");
}

TEST_CASE("cuvet explain of an unknown id is a usage error", "[cli][explain]") {
    auto result = test::run_cuvet({"explain", "CUV999"});
    CHECK(result.exit_code == 2);
    CHECK(result.err.find("unknown check id 'CUV999'") != std::string::npos);
    CHECK(test::run_cuvet({"explain"}).exit_code == 2);
}
