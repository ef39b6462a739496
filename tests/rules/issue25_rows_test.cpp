// Issue 25, rules found in this round: each row is read back through the lookups the
// checks use, so a typo in the JSON (a wrong key, a version that does not parse) fails here.
#include <catch2/catch.hpp>

#include "cuvet/rules/database.hpp"

using cuvet::rules::Database;
using cuvet::rules::Version;

TEST_CASE("Triton 26.05 and the CNTK 2.1 GPU edition are known", "[rules]") {
    const Database db = Database::load();
    const auto* triton = db.ngc_container("tritonserver", "26.05-py3");
    REQUIRE(triton != nullptr);
    REQUIRE(triton->cuda);
    CHECK(triton->cuda->str() == "13.2.1");
    CHECK_FALSE(triton->min_driver_branch);  // the notes name no branch: unknown
    const auto* cntk = db.framework_build("cntk", *Version::parse("2.1"), "gpu");
    REQUIRE(cntk != nullptr);
    REQUIRE(cntk->cuda);
    CHECK(cntk->cuda->str() == "8.0");
    REQUIRE(cntk->cudnn);
    CHECK(cntk->cudnn->str() == "6.0");
    CHECK(cntk->cudnn_major == 6);
    // Only 2.1 is recorded: other releases stay unknown.
    CHECK(db.framework_build("cntk", *Version::parse("2.4"), "gpu") == nullptr);
}
