#pragma once
// How old the rules may get before CI says so: the thresholds and the arithmetic, shared by
// the test of the built-in tables (staleness_test.cpp) and the test that stale copies of them
// fail (stale_copy_test.cpp). Why these numbers: rules/SCHEMA.md, "How current the tables are".
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cuvet::test::staleness {

// A table's facts may be this many days older than the day the tests run.
constexpr long kMaxDataAgeDays = 120;
// A family's newest release may be this many months older than the month its table's facts
// were checked (the month of data_version).
constexpr int kMaxNewestLagMonths = 6;
// The NGC images NVIDIA still publishes every month. TensorFlow's last NGC release is 25.02;
// TensorRT is read from secondary sources only, a few releases a year (rules/ngc_containers.json).
inline const std::vector<std::string> kMonthlyNgcImages = {"jax", "pytorch", "tritonserver"};

inline int digits(std::string_view text) {
    int value = 0;
    for (char c : text) {
        if (c < '0' || c > '9') return -1;
        value = value * 10 + (c - '0');
    }
    return text.empty() ? -1 : value;
}

// Days since 1970-01-01 of "YYYY-MM-DD" (proleptic Gregorian); nullopt when malformed.
inline std::optional<long> day_number(std::string_view date) {
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

// Months since year 0 of a date "2026-06-04", a month "2026-10" or an NGC release "26.05";
// nullopt when malformed.
inline std::optional<int> month_index(std::string_view when) {
    int year = -1, month = -1;
    if (when.size() == 5 && when[2] == '.') {
        year = 2000 + digits(when.substr(0, 2));
        month = digits(when.substr(3, 2));
        if (year < 2000) return std::nullopt;
    } else if ((when.size() == 7 || when.size() == 10) && when[4] == '-') {
        if (when.size() == 10 && !day_number(when)) return std::nullopt;
        year = digits(when.substr(0, 4));
        month = digits(when.substr(5, 2));
    }
    if (year < 0 || month < 1 || month > 12) return std::nullopt;
    return year * 12 + (month - 1);
}

// "2026.11.28-2" → "2026-11-28"; "" when data_version does not start with a date.
inline std::string data_date(const nlohmann::json& table) {
    const std::string version = table.value("data_version", "");
    if (version.size() < 10 || version[4] != '.' || version[7] != '.') return "";
    std::string date = version.substr(0, 10);
    date[4] = date[7] = '-';
    return day_number(date) ? date : "";
}

inline bool data_too_old(std::string_view date, long on_day) {
    auto day = day_number(date);
    return !day || on_day - *day > kMaxDataAgeDays;
}

// One family's newest release and when it came out ("" when the table does not say).
struct NewestRelease {
    std::string family;    // "nccl", "NGC pytorch"
    std::string release;   // "2.30.7", "26.05"
    std::string released;  // "2026-06-04", "2026-10", "26.05"
};

inline std::vector<int> version_parts(const std::string& version) {
    std::vector<int> parts;
    std::size_t at = 0;
    while (at <= version.size()) {
        std::size_t dot = version.find('.', at);
        if (dot == std::string::npos) dot = version.size();
        parts.push_back(digits(std::string_view(version).substr(at, dot - at)));
        at = dot + 1;
    }
    return parts;
}

// The newest of a list of versioned releases, with its "released" date ("" when undated).
inline NewestRelease newest_dated(const std::string& family, const nlohmann::json& releases) {
    NewestRelease newest{family, "", ""};
    for (const auto& row : releases) {
        const std::string version = row.value("version", "");
        if (!newest.release.empty() && version_parts(version) <= version_parts(newest.release))
            continue;
        newest.release = version;
        newest.released =
            row.contains("released") ? row.at("released").value("date", std::string()) : "";
    }
    return newest;
}

// The families a table dates: each monthly NGC image (its release names its month), and the
// newest NCCL or kernel compiler release (its "released" date). Other tables date no rows.
inline std::vector<NewestRelease> newest_releases(const nlohmann::json& table) {
    std::vector<NewestRelease> out;
    const std::string name = table.value("table", "");
    if (name == "ngc_containers") {
        for (const auto& image : kMonthlyNgcImages) {
            NewestRelease newest{"NGC " + image, "", ""};
            for (const auto& row : table.at("releases")) {
                const std::string release = row.value("release", "");
                // "YY.MM" strings order as the months they name.
                if (row.value("image", "") == image && release > newest.release)
                    newest.release = newest.released = release;
            }
            out.push_back(newest);
        }
    } else if (name == "nccl") {
        out.push_back(newest_dated("nccl", table.at("releases")));
    } else if (name == "kernel_compilers") {
        for (const auto& compiler : table.at("compilers"))
            out.push_back(newest_dated(compiler.value("framework", ""), compiler.at("releases")));
    }
    return out;
}

// What is stale in a table: one line per family whose newest release is undated or more
// than kMaxNewestLagMonths before the table's data date; empty when current.
inline std::vector<std::string> stale_families(const nlohmann::json& table) {
    std::vector<std::string> stale;
    const std::string checked = data_date(table);
    const auto checked_month = month_index(checked);
    for (const auto& newest : newest_releases(table)) {
        const auto released = month_index(newest.released);
        if (!checked_month || !released) {
            stale.push_back(newest.family + ": newest release " + newest.release +
                            " has no release date (data " + checked + ")");
        } else if (*checked_month - *released > kMaxNewestLagMonths) {
            stale.push_back(newest.family + ": newest release " + newest.release + " (" +
                            newest.released + ") is " + std::to_string(*checked_month - *released) +
                            " months before the data date " + checked);
        }
    }
    return stale;
}

// A copy of `table` whose facts are said to be checked on `date` ("2027-06-01").
inline nlohmann::json dated(nlohmann::json table, std::string_view date) {
    std::string version(date);
    version[4] = version[7] = '.';
    table["data_version"] = version + "-1";
    return table;
}

}  // namespace cuvet::test::staleness
