// util::framework_says: a framework's own words for its release, its version numbers printed
// the way that release prints them, or no quote at all.
#include <catch2/catch.hpp>

#include "checks/check_util.hpp"
#include "cuvet/rules/database.hpp"
#include "support/builtin_rules.hpp"

using cuvet::test::db;
using namespace cuvet;

namespace {

rules::Version v(const char* text) { return *rules::Version::parse(text); }

stack::FrameworkInstall framework(const char* name, const char* version) {
    stack::FrameworkInstall fw;
    fw.name = name;
    fw.version = v(version);
    return fw;
}

}  // namespace

TEST_CASE("framework_says prints versions the release's way", "[checks][framework_says]") {
    // TensorFlow 1.5 printed cudnnGetVersion() numbers with their "compatibility version".
    auto words = checks::util::framework_says(db(), framework("tensorflow", "1.5.0"),
                                              "cudnn_version_mismatch", {}, v("7.1.4"), v("7.0.5"));
    REQUIRE(words);
    CHECK_THAT(words->text, Catch::StartsWith(
                                "Loaded runtime CuDNN library: 7005 (compatibility version 7000) "
                                "but source was compiled with 7104 (compatibility version 7100)."));
    // PyTorch 2.x prints tuples; a digit the finding does not know is "x", not a guess.
    words = checks::util::framework_says(db(), framework("pytorch", "2.4.0"),
                                         "cudnn_version_mismatch", {}, v("9.1"), v("8.9.2.26"));
    REQUIRE(words);
    CHECK_THAT(words->text,
               Catch::Contains("compiled  against (9, 1, x) but found runtime version (8, 9, 2)"));
    // With LD_LIBRARY_PATH set, torch appends a hint worded by the path: elided.
    words =
        checks::util::framework_says(db(), framework("pytorch", "2.4.0"), "cudnn_version_mismatch",
                                     {}, v("9.1.0"), v("8.9.2"), true);
    REQUIRE(words);
    CHECK_THAT(words->text, Catch::EndsWith("can find the bundled cuDNN. …"));
}

TEST_CASE("framework_says quotes nothing rather than half a text", "[checks][framework_says]") {
    // An encoded version needs all three parts.
    CHECK_FALSE(checks::util::framework_says(db(), framework("tensorflow", "1.5.0"),
                                             "cudnn_version_mismatch", {}, v("7"), v("6.0.21")));
    // JAX's text also names a minimum this caller has no value for.
    CHECK_FALSE(checks::util::framework_says(db(), framework("jax", "0.5.0"),
                                             "cudnn_version_mismatch", {}, v("9.8.0"), v("9.1.0")));
    // A release whose words no source records.
    CHECK_FALSE(checks::util::framework_says(db(), framework("tensorflow", "2.3.0"),
                                             "cudnn_version_mismatch", {}, v("7.6.5"), v("7.4.2")));
}
