// A stale table fails the staleness rules: copies of the built-in tables with their data
// date moved on (what a re-check that found no newer release would give) are judged stale,
// and the copies still load, so the test data is a real table. The rules: staleness.hpp.
#include <catch2/catch.hpp>
#include <string>

#include "rules_fixtures.hpp"
#include "staleness.hpp"

using namespace cuvet::test::staleness;
using cuvet::test::builtin_table;
using cuvet::test::load_error_with;

namespace {

bool names(const std::vector<std::string>& lines, const std::string& family) {
    for (const auto& line : lines) {
        if (line.rfind(family + ":", 0) == 0) return true;
    }
    return false;
}

}  // namespace

TEST_CASE("rules staleness: NGC images whose newest release is 7 months old are stale",
          "[rules][staleness]") {
    const nlohmann::json table = builtin_table("ngc_containers.json");
    std::string newest_pytorch;
    for (const auto& newest : newest_releases(table)) {
        if (newest.family == "NGC pytorch") newest_pytorch = newest.release;
    }
    REQUIRE(month_index(newest_pytorch));
    // The first day of the 6th and the 7th month after PyTorch's newest release.
    const int month = *month_index(newest_pytorch);
    const auto first_of = [](int index) {
        const int y = index / 12, m = index % 12 + 1;
        return std::to_string(y) + (m < 10 ? "-0" : "-") + std::to_string(m) + "-01";
    };
    const nlohmann::json fresh = dated(table, first_of(month + kMaxNewestLagMonths));
    const nlohmann::json stale = dated(table, first_of(month + kMaxNewestLagMonths + 1));
    CHECK(load_error_with("ngc_containers.json", stale).empty());
    CHECK_FALSE(names(stale_families(fresh), "NGC pytorch"));
    INFO(stale.at("data_version").get<std::string>());
    CHECK(names(stale_families(stale), "NGC pytorch"));
}

TEST_CASE("rules staleness: a NCCL or kernel compiler table checked a year later is stale",
          "[rules][staleness]") {
    for (const char* file : {"nccl.json", "kernel_compilers.json"}) {
        INFO(file);
        const nlohmann::json table = builtin_table(file);
        const std::string checked = data_date(table);
        REQUIRE_FALSE(checked.empty());
        REQUIRE(stale_families(table).empty());
        const std::string a_year_later =
            std::to_string(std::stoi(checked.substr(0, 4)) + 1) + checked.substr(4);
        const nlohmann::json stale = dated(table, a_year_later);
        CHECK(load_error_with(file, stale).empty());
        CHECK(stale_families(stale).size() == 1);
    }
}

TEST_CASE("rules staleness: a newest release without a date is stale", "[rules][staleness]") {
    nlohmann::json table = builtin_table("nccl.json");
    const std::string newest = newest_releases(table).at(0).release;
    for (auto& row : table.at("releases")) {
        if (row.at("version") == newest) row.erase("released");
    }
    CHECK(load_error_with("nccl.json", table).empty());
    CHECK(names(stale_families(table), "nccl"));
}

TEST_CASE("rules staleness: a table last checked 121 days ago is too old", "[rules][staleness]") {
    const nlohmann::json table = builtin_table("cudnn.json");
    const long checked = *day_number(data_date(table));
    CHECK_FALSE(data_too_old(data_date(table), checked + kMaxDataAgeDays));
    CHECK(data_too_old(data_date(table), checked + kMaxDataAgeDays + 1));
}

TEST_CASE("rules staleness: a release date the loader cannot read is an input error",
          "[rules][staleness]") {
    nlohmann::json table = builtin_table("nccl.json");
    auto& first = table.at("releases").at(0);
    first["released"] = {{"date", "June 2026"}, {"source", first.at("source")}};
    CHECK_THAT(load_error_with("nccl.json", table),
               Catch::Contains("/releases/0/released/date: expected a date"));
    first["released"] = {{"date", "2026-06-04"}, {"source", "no-such-source"}};
    CHECK_THAT(load_error_with("nccl.json", table), Catch::Contains("unknown source"));
    first["released"] = {{"date", "2026-06-04"}, {"source", first.at("source")}, {"day", 4}};
    CHECK_THAT(load_error_with("nccl.json", table), Catch::Contains("unexpected key 'day'"));
}
