// `cuvet validate --format sarif` of the sample image, as GitHub code scanning
// receives it: valid against the SARIF 2.1.0 schema, and with the fields and
// limits GitHub's upload documents (a text location with startLine first,
// ruleId, rule ids, message text, fingerprints, at most 10 tags per rule).
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "support/process.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"

using namespace cuvet;

namespace {

void check_github_fields(const nlohmann::json& log, const std::string& first_uri) {
    REQUIRE(log["version"] == "2.1.0");
    REQUIRE(log["runs"].size() == 1);
    const auto& run = log["runs"][0];
    CHECK(run["tool"]["driver"]["name"] == "cuvet");
    CHECK_FALSE(run["tool"]["driver"]["version"].get<std::string>().empty());
    std::set<std::string> rule_ids;
    for (const auto& rule : run["tool"]["driver"]["rules"]) {
        rule_ids.insert(rule["id"].get<std::string>());
        CHECK_FALSE(rule["shortDescription"]["text"].get<std::string>().empty());
        CHECK(rule["help"]["markdown"].get<std::string>().rfind(
                  "# " + rule["id"].get<std::string>(), 0) == 0);
        CHECK(rule["properties"]["tags"].size() <= 10);
    }
    REQUIRE_FALSE(run["results"].empty());
    for (const auto& result : run["results"]) {
        INFO(result.dump());
        CHECK(rule_ids.count(result["ruleId"].get<std::string>()) == 1);
        CHECK_FALSE(result["message"]["text"].get<std::string>().empty());
        REQUIRE(result["locations"].size() >= 1);
        const auto& physical = result["locations"][0]["physicalLocation"];
        CHECK_FALSE(physical["artifactLocation"]["uri"].get<std::string>().empty());
        CHECK(physical["region"]["startLine"].get<int>() >= 1);
        CHECK(result["partialFingerprints"].size() == 1);
    }
    // Without --dockerfile every result is filed at the image; with it, those
    // the Dockerfile explains are filed at its line, the rest at the image.
    std::size_t at_first_uri = 0;
    for (const auto& result : run["results"]) {
        const auto& uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"];
        CHECK((uri == first_uri || uri == "app.tar"));
        at_first_uri += uri == first_uri;
    }
    CHECK(at_first_uri > 0);
}

int schema_check(const std::string& sarif_path, std::string* why) {
    const std::string schema =
        std::string(CUVET_SOURCE_DIR) + "/tests/report/data/sarif-2.1.0-rtm.5.json";
    const std::string validator =
        std::string(CUVET_SOURCE_DIR) + "/tests/report/validate_json_schema.py";
    if (!test::have_program("python3")) return 77;
    auto result = test::run_shell("python3 " + test::shell_quote(validator) + " " +
                                  test::shell_quote(schema) + " " + test::shell_quote(sarif_path));
    *why = result.out + result.err;
    return result.exit_code;
}

}  // namespace

TEST_CASE("validate's SARIF of the sample passes the 2.1.0 schema and GitHub's field checks",
          "[cli][sarif]") {
    const auto sample = std::filesystem::path(CUVET_BUILD_DIR) / "testdata/sample-image.tar";
    if (!std::filesystem::exists(sample)) {
        CUVET_SKIP("no sample image built");
    }
    test::TempDir dir;
    // As a CI job runs it: the Dockerfile by its path in the repository.
    std::filesystem::copy_file(
        std::string(CUVET_SOURCE_DIR) + "/tests/scenarios/data/sample.Dockerfile",
        dir / "Dockerfile");
    std::filesystem::copy_file(sample, dir / "app.tar");
    for (bool with_dockerfile : {false, true}) {
        INFO("--dockerfile: " << with_dockerfile);
        // With a docs URL, the schema sees helpUri too (format: uri).
        std::string command =
            "cd " + test::shell_quote(dir.path().string()) + " && " +
            (with_dockerfile ? "CUVET_DOCS_URL=https://docs.example.org/cuvet/checks " : "") +
            test::shell_quote(CUVET_BINARY_PATH) + " validate app.tar --format sarif -o out.sarif" +
            (with_dockerfile ? " --dockerfile Dockerfile" : "");
        auto run = test::run_shell(command);
        INFO(run.err);
        REQUIRE((run.exit_code == 0 || run.exit_code == 1));
        auto log = nlohmann::json::parse(test::read_file(dir / "out.sarif"));
        check_github_fields(log, with_dockerfile ? "Dockerfile" : "app.tar");
        std::string why;
        int valid = schema_check((dir / "out.sarif").string(), &why);
        if (valid == 77) {
            WARN(
                "skipped the schema: python3 has no jsonschema module (Debian: "
                "python3-jsonschema)");
            continue;
        }
        INFO(why);
        CHECK(valid == 0);
    }
}

TEST_CASE("every SARIF rule carries its page: help from CheckInfo and helpUri under CUVET_DOCS_URL",
          "[cli][sarif]") {
    test::TempDir dir;
    std::ofstream(dir / "Dockerfile")
        << "FROM nvidia/cuda:12.1.0-runtime-ubuntu22.04\nRUN pip install torch\n";
    const std::string lint = test::shell_quote(CUVET_BINARY_PATH) + " lint " +
                             test::shell_quote((dir / "Dockerfile").string()) +
                             " --format sarif --fail-on never";
    auto linked = test::run_shell("CUVET_DOCS_URL=https://docs.example.org/cuvet/checks/ " + lint);
    INFO(linked.err);
    REQUIRE(linked.exit_code == 0);
    const auto rules = nlohmann::json::parse(linked.out)["runs"][0]["tool"]["driver"]["rules"];
    REQUIRE(rules.size() >= 10);
    for (const auto& rule : rules) {
        const std::string id = rule["id"];
        INFO(id);
        CHECK(rule["helpUri"] == "https://docs.example.org/cuvet/checks/" + id + ".md");
        CHECK_FALSE(rule["help"]["text"].get<std::string>().empty());
        // The inline page is the committed docs/checks page, word for word.
        CHECK(rule["help"]["markdown"] ==
              test::read_file(std::string(CUVET_SOURCE_DIR) + "/docs/checks/" + id + ".md"));
    }
    auto unlinked = test::run_shell("CUVET_DOCS_URL= " + lint);
    REQUIRE(unlinked.exit_code == 0);
    // A named document: a range-for over a member of a temporary reads freed memory (before C++23).
    const auto unlinked_sarif = nlohmann::json::parse(unlinked.out);
    for (const auto& rule : unlinked_sarif["runs"][0]["tool"]["driver"]["rules"]) {
        CHECK_FALSE(rule.contains("helpUri"));
        CHECK(rule["help"].contains("markdown"));
    }
    auto bad = test::run_shell("CUVET_DOCS_URL=docs/checks " + lint);
    CHECK(bad.exit_code == 2);
    CHECK(bad.err.find("CUVET_DOCS_URL: 'docs/checks' is not an http(s) URL") != std::string::npos);
}
