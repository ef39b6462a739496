#include "cuvet/rules/version.hpp"

#include <catch2/catch.hpp>

#include "cuvet/core/error.hpp"
#include "rules/rules_fixtures.hpp"

using cuvet::rules::Version;
using cuvet::test::v;

TEST_CASE("Version parses dotted numbers and keeps the text", "[rules][version]") {
    auto driver = Version::parse("535.104.05");
    REQUIRE(driver);
    CHECK(driver->parts() == std::vector<int>{535, 104, 5});
    CHECK(driver->str() == "535.104.05");
    CHECK(driver->major() == 535);
    CHECK(v("12").minor() == 0);
    CHECK(v("9.1.0.70").part(3) == 70);
}

TEST_CASE("Version rejects what is not a version", "[rules][version]") {
    for (const char* bad : {"", ".", "12.", ".4", "12..4", "12.4a", "v12", "1.2.3.4.5.6.7", "-1",
                            "1234567890", "12,4"}) {
        INFO(bad);
        CHECK_FALSE(Version::parse(bad));
    }
    CHECK_THROWS_AS(Version::parse_or_throw("five", "--driver"), cuvet::Error);
}

TEST_CASE("Version compares numerically, missing parts are zero", "[rules][version]") {
    CHECK(v("535.104.05") > v("535.54.03"));
    CHECK(v("12.10") > v("12.9"));
    CHECK(v("12.4") == v("12.4.0"));
    CHECK(v("570.26") < v("570.124.06"));
    CHECK(v("11.8") < v("12"));
}

TEST_CASE("Version::covers treats the shorter version as a range", "[rules][version]") {
    CHECK(v("12").covers(v("12.4.1")));
    CHECK(v("2.1").covers(v("2.1.2")));
    CHECK_FALSE(v("12.4").covers(v("12.5")));
    CHECK_FALSE(v("12.4.1").covers(v("12.4")));
    CHECK(v("12.4.1").truncated(2).str() == "12.4");
}
