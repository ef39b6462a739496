// The built-in rules are current: every table checked within kMaxDataAgeDays of the day the
// tests run, and each dated family's newest release within kMaxNewestLagMonths of the day its
// table was checked. The thresholds and why: rules/SCHEMA.md, "How current the tables are";
// that a stale table fails: stale_copy_test.cpp.
#include "staleness.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <string>

#include "rules_fixtures.hpp"

using namespace cuvet::test::staleness;
using cuvet::test::builtin_table;
using cuvet::test::db;

namespace {

// The day the tests judge by: today, or CUVET_RULES_TODAY=YYYY-MM-DD (to see what a later
// CI run will say).
long today() {
    if (const char* fixed = std::getenv("CUVET_RULES_TODAY")) {
        if (auto day = day_number(fixed)) return *day;
    }
    using namespace std::chrono;
    return duration_cast<duration<long, std::ratio<86400>>>(system_clock::now().time_since_epoch())
        .count();
}

}  // namespace

TEST_CASE("rules staleness: the age rules are what SCHEMA.md says", "[rules][staleness]") {
    CHECK(day_number("1970-01-01").value() == 0);
    CHECK(day_number("2026-11-27").value() - day_number("2026-07-30").value() == 120);
    CHECK_FALSE(day_number("2026-13-01"));
    CHECK_FALSE(day_number("2026.11.27"));
    // 120 days is still fresh, 121 is stale; a missing date is stale.
    CHECK_FALSE(data_too_old("2026-07-30", *day_number("2026-11-27")));
    CHECK(data_too_old("2026-07-29", *day_number("2026-11-27")));
    CHECK(data_too_old("", *day_number("2026-11-27")));
    // An NGC release, a day and a month name the same month.
    CHECK(month_index("26.05") == month_index("2026-05-31"));
    CHECK(month_index("26.05") == month_index("2026-05"));
    CHECK_FALSE(month_index("2026-13"));
    CHECK_FALSE(month_index("May 2026"));
    CHECK(data_date(nlohmann::json{{"data_version", "2026.11.28-2"}}) == "2026-11-28");
    CHECK(data_date(nlohmann::json{{"data_version", "v3"}}).empty());
    // Six months between the newest release and the month the facts were checked.
    const auto nccl_row = [](const std::string& released) {
        return nlohmann::json::parse(R"({"table": "nccl", "data_version": "2026.11.28-1",
            "releases": [{"version": "2.9.9", "released": {"date": "2021-05-12"}},
                         {"version": "2.30.7", "released": {"date": ")" +
                                     released + R"("}}]})");
    };
    CHECK(stale_families(nccl_row("2026-05-31")).empty());
    CHECK(stale_families(nccl_row("2026-05")).empty());
    CHECK(stale_families(nccl_row("2026-04-30")).size() == 1);
    CHECK(stale_families(nccl_row("")).size() == 1);
}

TEST_CASE("rules staleness: every table was checked within the last 120 days",
          "[rules][staleness]") {
    const long on_day = today();
    for (const auto& table : db().tables()) {
        INFO(table.name << ": data_version " << table.data_version << ", newest " << table.newest
                        << "; re-check its facts (rules/SCHEMA.md, "
                        << "'How current the tables are') and bump data_version");
        CHECK_FALSE(data_too_old(table.data_date, on_day));
    }
}

TEST_CASE("rules staleness: each dated family's newest release is at most 6 months behind",
          "[rules][staleness]") {
    for (const char* file : {"ngc_containers.json", "nccl.json", "kernel_compilers.json"}) {
        const nlohmann::json table = builtin_table(file);
        // Every family the issue tracks by date is there to be judged.
        CHECK(newest_releases(table).size() ==
              (std::string(file) == "ngc_containers.json" ? kMonthlyNgcImages.size() : 1));
        for (const auto& line : stale_families(table)) {
            FAIL_CHECK(file << ": " << line
                            << "; add the newer releases (rules/SCHEMA.md, 'How current the "
                               "tables are')");
        }
    }
}
