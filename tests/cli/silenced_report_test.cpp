// Issue 33: a .cuvet.yaml from the checkout is the pull request's to edit, so
// every finding its `ignore` silenced stays in the report, in every format,
// with the file that silenced it; one silenced on the command line does not.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "support/process.hpp"
#include "support/temp_dir.hpp"

using namespace cuvet::test;

namespace {

struct Checkout {
    TempDir dir;
    std::string config;
    Checkout() {
        write_file(dir / "Dockerfile",
                   "FROM nvidia/cuda:12.4.1-cudnn8-runtime-ubuntu22.04\nRUN pip install torch\n");
        write_file(dir / ".cuvet.yaml", "ignore: [CUVL09]\n");
        config = (dir / ".cuvet.yaml").string();
    }
    ProcessResult lint(const std::string& format, const std::string& extra = "") const {
        return run_shell("cd " + shell_quote(dir.path().string()) + " && " +
                         shell_quote(std::string(CUVET_BINARY_PATH)) + " lint --format " + format +
                         " --fail-on never " + extra + " Dockerfile");
    }
};

}  // namespace

TEST_CASE("silenced findings: every format lists them with the file that silenced them",
          "[cli][config]") {
    Checkout checkout;
    SECTION("text") {
        auto run = checkout.lint("text");
        INFO(run.out << run.err);
        REQUIRE(run.exit_code == 0);
        const auto at = run.out.find("silenced by " + checkout.config + ":");
        REQUIRE(at != std::string::npos);
        CHECK(run.out.find("CUVL09", at) != std::string::npos);
    }
    SECTION("json") {
        auto run = checkout.lint("json");
        REQUIRE(run.exit_code == 0);
        const auto report = nlohmann::json::parse(run.out);
        for (const auto& finding : report["findings"]) CHECK(finding["id"] != "CUVL09");
        REQUIRE(report.contains("silenced"));
        REQUIRE(report["silenced"].size() == 1);
        CHECK(report["silenced"][0]["id"] == "CUVL09");
        CHECK(report["silenced"][0]["silenced_by"] == checkout.config);
    }
    SECTION("sarif") {
        auto run = checkout.lint("sarif");
        REQUIRE(run.exit_code == 0);
        const auto log = nlohmann::json::parse(run.out);
        int suppressed = 0;
        for (const auto& result : log["runs"][0]["results"]) {
            if (!result.contains("suppressions")) {
                CHECK(result["ruleId"] != "CUVL09");
                continue;
            }
            ++suppressed;
            CHECK(result["ruleId"] == "CUVL09");
            CHECK(result["suppressions"][0]["kind"] == "external");
            CHECK(result["suppressions"][0]["justification"] == "silenced by " + checkout.config);
        }
        CHECK(suppressed == 1);
    }
    SECTION("junit") {
        auto run = checkout.lint("junit");
        REQUIRE(run.exit_code == 0);
        CHECK_THAT(run.out, Catch::Contains("skipped=\"1\"") &&
                                Catch::Contains("<skipped message=\"silenced by " +
                                                checkout.config + "\">"));
    }
    SECTION("an id silenced on the command line is the caller's: not listed") {
        auto run = checkout.lint("json", "--config none --ignore CUVL09");
        REQUIRE(run.exit_code == 0);
        CHECK_FALSE(nlohmann::json::parse(run.out).contains("silenced"));
    }
}
