// How old the rules may get before CI says so. The thresholds and why they are what they are:
// rules/SCHEMA.md, "How current the tables are". The ages come from what `cuvet rules` prints
// per table (TableInfo::data_date, the day the facts were checked, and newest_entry()).
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cuvet/rules/database.hpp"
#include "support/builtin_rules.hpp"

using cuvet::rules::Database;
using cuvet::test::db;

namespace {

// A table's facts may be this many days older than the day the tests run.
constexpr long kMaxDataAgeDays = 120;
// An NGC image NVIDIA still publishes every month: its newest row may be this many months
// older than the month the table's facts were checked.
constexpr int kMaxNgcLagMonths = 9;
// The images that check applies to. TensorFlow's last NGC release is 25.02; TensorRT rows
// stop at 23.04 by choice (the linter reads the framework images), see SCHEMA.md.
const std::vector<std::string> kMonthlyNgcImages = {"jax", "pytorch", "tritonserver"};

int digits(std::string_view text) {
    int value = 0;
    for (char c : text) {
        if (c < '0' || c > '9') return -1;
        value = value * 10 + (c - '0');
    }
    return text.empty() ? -1 : value;
}

// Days since 1970-01-01 of "YYYY-MM-DD" (proleptic Gregorian); nullopt when malformed.
std::optional<long> day_number(std::string_view date) {
    if (date.size() != 10 || date[4] != '-' || date[7] != '-') return std::nullopt;
    int y = digits(date.substr(0, 4));
    int m = digits(date.substr(5, 2));
    int d = digits(date.substr(8, 2));
    if (y < 0 || m < 1 || m > 12 || d < 1 || d > 31) return std::nullopt;
    // H. Hinnant's days_from_civil.
    y -= m <= 2 ? 1 : 0;
    const long era = (y >= 0 ? y : y - 399) / 400;
    const long yoe = y - era * 400;
    const long doy = (153L * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

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

// "26.05" → 2026 * 12 + 4; a data date "2026-11-26" → 2026 * 12 + 10; -1 when malformed.
int month_index_of_release(std::string_view release) {
    if (release.size() != 5 || release[2] != '.') return -1;
    int yy = digits(release.substr(0, 2));
    int mm = digits(release.substr(3, 2));
    if (yy < 0 || mm < 1 || mm > 12) return -1;
    return (2000 + yy) * 12 + (mm - 1);
}
int month_index_of_date(std::string_view date) {
    if (!day_number(date)) return -1;
    return digits(date.substr(0, 4)) * 12 + (digits(date.substr(5, 2)) - 1);
}

// "jax 26.06, pytorch 26.05" (newest_entry("ngc_containers")) → the release of one image.
std::string newest_release_of(const std::string& listing, const std::string& image) {
    const std::string key = image + " ";
    for (std::size_t at = 0; at < listing.size();) {
        std::size_t end = listing.find(", ", at);
        if (end == std::string::npos) end = listing.size();
        std::string_view item(listing.data() + at, end - at);
        if (item.substr(0, key.size()) == key) return std::string(item.substr(key.size()));
        at = end + 2;
    }
    return {};
}

bool data_too_old(std::string_view data_date, long on_day) {
    auto day = day_number(data_date);
    return !day || on_day - *day > kMaxDataAgeDays;
}

bool ngc_too_old(std::string_view newest_release, std::string_view data_date) {
    int newest = month_index_of_release(newest_release);
    int checked = month_index_of_date(data_date);
    return newest < 0 || checked < 0 || checked - newest > kMaxNgcLagMonths;
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
    // Nine months between the newest monthly release and the day the facts were checked.
    CHECK(month_index_of_release("26.05") == month_index_of_date("2026-05-31"));
    CHECK_FALSE(ngc_too_old("26.02", "2026-11-26"));
    CHECK(ngc_too_old("26.01", "2026-11-26"));
    CHECK(ngc_too_old("", "2026-11-26"));
    CHECK(newest_release_of("jax 26.06, pytorch 26.05, tritonserver 26.10", "pytorch") == "26.05");
    CHECK(newest_release_of("jax 26.06, pytorch 26.05", "tensorrt").empty());
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

TEST_CASE("rules staleness: the NCCL and Triton tables are dated and name their newest release",
          "[rules][staleness]") {
    // They have no monthly cadence of their own to check, so the 120-day rule above is what
    // keeps them current (rules/SCHEMA.md, "How current the tables are").
    for (const char* name : {"nccl", "triton"}) {
        INFO(name);
        bool found = false;
        for (const auto& table : db().tables()) {
            if (table.name != name) continue;
            found = true;
            CHECK(day_number(table.data_date));
            CHECK_FALSE(table.newest.empty());
        }
        CHECK(found);
    }
}

TEST_CASE("rules staleness: each monthly NGC image's newest row is at most 9 months behind",
          "[rules][staleness]") {
    const std::string listing = db().newest_entry("ngc_containers");
    std::string data_date;
    for (const auto& table : db().tables()) {
        if (table.name == "ngc_containers") data_date = table.data_date;
    }
    for (const auto& image : kMonthlyNgcImages) {
        const std::string newest = newest_release_of(listing, image);
        INFO(image << ": newest release " << newest << ", facts checked " << data_date
                   << "; add the newer monthly releases to rules/ngc_containers.json");
        CHECK_FALSE(ngc_too_old(newest, data_date));
    }
}
