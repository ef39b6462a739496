#include "cuvet/report/fail_on.hpp"

#include <catch2/catch.hpp>

#include "report_fixture.hpp"

using namespace cuvet::report;

TEST_CASE("fail-on thresholds", "[report][fail-on]") {
    auto all = cuvet::test::sample_findings();  // one error, one warning, one info
    std::vector<Finding> warning_and_info;
    for (const auto& f : all) {
        if (f.severity != Severity::error) warning_and_info.push_back(f);
    }
    std::vector<Finding> info_only;
    for (const auto& f : all) {
        if (f.severity == Severity::info) info_only.push_back(f);
    }
    CHECK(exit_code(all, FailOn::error) == 1);
    CHECK(exit_code(warning_and_info, FailOn::error) == 0);
    CHECK(exit_code(warning_and_info, FailOn::warning) == 1);
    CHECK(exit_code(info_only, FailOn::warning) == 0);
    CHECK(exit_code(info_only, FailOn::info) == 1);
    CHECK(exit_code(all, FailOn::never) == 0);
    CHECK(exit_code({}, FailOn::info) == 0);
}

TEST_CASE("fail-on parsing", "[report][fail-on]") {
    for (const char* word : {"error", "warning", "info", "never"}) {
        auto parsed = parse_fail_on(word);
        REQUIRE(parsed);
        CHECK(to_string(*parsed) == word);
    }
    CHECK_FALSE(parse_fail_on("warnings"));
    CHECK_FALSE(parse_fail_on(""));
    CHECK(parse_severity("warning") == Severity::warning);
    CHECK(to_string(Severity::info) == "info");
    CHECK_FALSE(parse_severity("fatal"));
}
