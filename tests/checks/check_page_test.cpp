// docs/checks/<ID>.md is the one place a check's words are written: the registry reads them
// from the compiled-in page, and a page without its sections is refused naming the page.
#include "checks/check_page.hpp"

#include <catch2/catch.hpp>

#include "cuvet/checks/registry.hpp"
#include "cuvet/core/error.hpp"

using namespace cuvet;

namespace {

const std::string page =
    "# CUV999 test-check\n\n**A one-line title**\n\nSeverity: error · Command: `cuvet "
    "validate`\n\n## Why\n\nBecause.\n\n## Fails\n\n```\nFROM bad\n```\n\n## Passes\n\n```\n"
    "FROM good\n```\n\n## Fix\n\nDo this.\n\n---\nfooter\n";

checks::CheckInfo test_info() {
    checks::CheckInfo info;
    info.id = "CUV999";
    info.name = "test-check";
    return info;
}

}  // namespace

TEST_CASE("a check page's sections become the check's documentation", "[checks][check-page]") {
    auto info = test_info();
    checks::read_check_page(info, page);
    CHECK(info.title == "A one-line title");
    CHECK(info.rationale == "Because.");
    CHECK(info.failing_example == "FROM bad");
    CHECK(info.passing_example == "FROM good");
    CHECK(info.fix == "Do this.");
    // The registry fills every check from its compiled-in page.
    const auto* cuv004 = checks::find_check("CUV004");
    REQUIRE(cuv004);
    CHECK(cuv004->info->title == "cuDNN older than the framework was built with");
    CHECK_THAT(cuv004->info->rationale, Catch::StartsWith("Frameworks check the cuDNN"));
}

TEST_CASE("a malformed or missing check page is refused with its name", "[checks][check-page]") {
    auto info = test_info();
    SECTION("another check's heading") {
        auto other = page;
        other.replace(2, 6, "CUV998");
        CHECK_THROWS_WITH(checks::read_check_page(info, other),
                          "docs/checks/CUV999.md: expected the heading '# CUV999 test-check\n'");
    }
    SECTION("no Fix section") {
        auto no_fix = page;
        no_fix.replace(no_fix.find("## Fix"), 6, "## Fixes");
        CHECK_THROWS_WITH(checks::read_check_page(info, no_fix),
                          "docs/checks/CUV999.md: no '## Fix\n\n'");
    }
    SECTION("a page the build does not have") {
        CHECK_THROWS_WITH(checks::read_check_page(info),
                          "docs/checks/CUV999.md: missing from the build (every check has a page)");
    }
}
