// JSON, SARIF, JUnit, checkstyle and GNU output: structure, and validity checked
// by independent parsers (nlohmann for JSON, python3's xml.etree for XML, the
// official SARIF JSON schema through python3-jsonschema).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <set>

#include "report_fixture.hpp"
#include "support/process.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"

using namespace cuvet;

namespace {

// 0 valid, 1 invalid (messages in `why`), 77 validator unavailable.
int python_check(const std::string& script, const std::string& file, std::string* why) {
    if (!test::have_program("python3")) return 77;
    auto result =
        test::run_shell("python3 " + test::shell_quote(script) + " " + test::shell_quote(file));
    if (why) *why = result.out + result.err;
    return result.exit_code;
}

const std::string xml_checker = R"(
import sys, xml.etree.ElementTree as ET
ET.parse(sys.argv[1])
)";

}  // namespace

TEST_CASE("JSON report follows schema cuvet-report v1", "[report][json]") {
    auto doc = nlohmann::json::parse(
        test::render("json", test::sample_findings(), test::sample_context()));
    CHECK(doc["schema"] == "cuvet-report");
    CHECK(doc["schema_version"] == 1);
    CHECK(doc["tool"]["name"] == "cuvet");
    CHECK(doc["command"] == "validate");
    CHECK(doc["targets"] == nlohmann::json::array({"image.tar"}));
    CHECK(doc["summary"] ==
          nlohmann::json({{"total", 3}, {"error", 1}, {"warning", 1}, {"info", 0 + 1}}));
    REQUIRE(doc["findings"].size() == 3);
    const auto& first = doc["findings"][0];
    CHECK(first["id"] == "CUV001");  // errors first
    CHECK(first["severity"] == "error");
    CHECK(first["locations"][0]["file"] == "/opt/app/lib tf/libtf.so");
    CHECK_FALSE(first["locations"][0].contains("line"));
    CHECK(first["evidence"].size() == 2);
    CHECK(doc["findings"][1]["locations"][0]["line"] == 7);
    CHECK(doc["findings"][1]["locations"][0]["end_line"] == 9);
    CHECK(doc["findings"][1]["message"] ==
          "two copies: 8.9.0 <system> & 8.9.2 \"wheel\"\nsecond line");
}

TEST_CASE("SARIF output has the 2.1.0 structure", "[report][sarif]") {
    auto doc = nlohmann::json::parse(
        test::render("sarif", test::sample_findings(), test::sample_context()));
    CHECK(doc["version"] == "2.1.0");
    const auto& run = doc["runs"][0];
    CHECK(run["tool"]["driver"]["name"] == "cuvet");
    CHECK(run["tool"]["driver"]["rules"].size() == 4);
    CHECK(run["tool"]["driver"]["rules"][0]["defaultConfiguration"]["level"] == "error");
    const auto& results = run["results"];
    REQUIRE(results.size() == 3);
    CHECK(results[0]["ruleId"] == "CUV001");
    CHECK(results[0]["ruleIndex"] == 0);
    // A path inside the image is no file of the repository: the image is the
    // location, at line 1, and the path a related location.
    CHECK(results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "image.tar");
    CHECK(results[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 1);
    CHECK(results[0]["relatedLocations"][0]["physicalLocation"]["artifactLocation"]["uri"] ==
          "/opt/app/lib%20tf/libtf.so");
    CHECK(results[1]["locations"][0]["physicalLocation"]["region"]["startLine"] == 7);
    CHECK(results[2]["level"] == "note");  // info
    CHECK(results[2]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "image.tar");
}

TEST_CASE("SARIF: the Dockerfile line is the first location, before the image path",
          "[report][sarif]") {
    auto findings = test::sample_findings();
    findings[2].locations = {{"/usr/lib/libcudnn.so.8", 0, 0},
                             {"Dockerfile", 12, 12}};  // CUV001, as --dockerfile makes it
    auto doc = nlohmann::json::parse(test::render("sarif", findings, test::sample_context()));
    const auto& result = doc["runs"][0]["results"][0];
    REQUIRE(result["ruleId"] == "CUV001");
    REQUIRE(result["locations"].size() == 1);
    CHECK(result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "Dockerfile");
    CHECK(result["locations"][0]["physicalLocation"]["region"]["startLine"] == 12);
    CHECK(result["relatedLocations"][0]["physicalLocation"]["artifactLocation"]["uri"] ==
          "/usr/lib/libcudnn.so.8");
}

TEST_CASE("SARIF: an image reference is filed without transport, tag or digest",
          "[report][sarif]") {
    auto context = test::sample_context();
    for (const auto& [target, uri] : std::vector<std::pair<std::string, std::string>>{
             {"docker-daemon:app:3f2c1e", "app"},
             {"docker://registry.example.com:5000/team/app:v1",
              "registry.example.com:5000/team/app"},
             {"containers-storage:localhost/app@sha256:0123", "localhost/app"},
             {"build/app.tar", "build/app.tar"}}) {
        context.targets = {target};
        auto doc = nlohmann::json::parse(test::render("sarif", test::sample_findings(), context));
        INFO(target);
        CHECK(doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
                 ["uri"] == uri);
    }
}

TEST_CASE(
    "SARIF: fingerprints stay for the same problem in the next build and differ between problems",
    "[report][sarif]") {
    auto context = test::sample_context();
    context.targets = {"docker-daemon:app:build-1"};
    auto first = nlohmann::json::parse(test::render("sarif", test::sample_findings(), context));
    context.targets = {"docker-daemon:app:build-2"};
    auto second = nlohmann::json::parse(test::render("sarif", test::sample_findings(), context));
    std::set<std::string> seen;
    for (std::size_t i = 0; i < 3; ++i) {
        const auto& fingerprint =
            first["runs"][0]["results"][i]["partialFingerprints"]["cuvetFinding/v1"];
        CHECK(fingerprint ==
              second["runs"][0]["results"][i]["partialFingerprints"]["cuvetFinding/v1"]);
        CHECK(fingerprint.get<std::string>().size() == 16);
        seen.insert(fingerprint.get<std::string>());
    }
    CHECK(seen.size() == 3);
}

TEST_CASE("SARIF: rules carry their page (helpUri, help.markdown) and the tool its informationUri",
          "[report][sarif]") {
    auto context = test::sample_context();
    context.information_uri = "https://example.org/cuvet";
    context.rules[0].help_uri = "https://example.org/cuvet/blob/abc/docs/checks/CUV001.md";
    context.rules[0].help_markdown = "# CUV001 unresolved-soname\n";
    auto doc = nlohmann::json::parse(test::render("sarif", test::sample_findings(), context));
    const auto& driver = doc["runs"][0]["tool"]["driver"];
    CHECK(driver["informationUri"] == "https://example.org/cuvet");
    CHECK(driver["rules"][0]["helpUri"] ==
          "https://example.org/cuvet/blob/abc/docs/checks/CUV001.md");
    CHECK(driver["rules"][0]["help"]["markdown"] == "# CUV001 unresolved-soname\n");
    CHECK(driver["rules"][0]["help"]["text"] == "Install it.");
    CHECK_FALSE(driver["rules"][1].contains("helpUri"));
}

TEST_CASE("SARIF output validates against the official 2.1.0 schema", "[report][sarif]") {
    test::TempDir dir;
    std::string sarif = (dir / "out.sarif").string();
    test::write_file(sarif, test::render("sarif", test::sample_findings(), test::sample_context()));
    std::string schema =
        std::string(CUVET_SOURCE_DIR) + "/tests/report/data/sarif-2.1.0-rtm.5.json";
    std::string validator = std::string(CUVET_SOURCE_DIR) + "/tests/report/validate_json_schema.py";
    std::string why;
    if (!test::have_program("python3")) {
        CUVET_SKIP("skipped: python3 not found");
    }
    auto result = test::run_shell("python3 " + test::shell_quote(validator) + " " +
                                  test::shell_quote(schema) + " " + test::shell_quote(sarif));
    if (result.exit_code == 77) {
        CUVET_SKIP("skipped: python3 has no jsonschema module (Debian: python3-jsonschema)");
    }
    INFO(result.out << result.err);
    CHECK(result.exit_code == 0);

    // The validator must reject what the schema forbids, or this test proves nothing.
    auto broken = nlohmann::json::parse(test::read_file(sarif));
    broken["runs"][0]["results"][0]["level"] = "fatal";
    test::write_file(sarif, broken.dump());
    auto rejected = test::run_shell("python3 " + test::shell_quote(validator) + " " +
                                    test::shell_quote(schema) + " " + test::shell_quote(sarif));
    CHECK(rejected.exit_code == 1);
    CHECK(rejected.out.find("level") != std::string::npos);
}

TEST_CASE("JUnit XML: one failing case per finding, one passing case per clean check",
          "[report][junit]") {
    std::string xml = test::render("junit", test::sample_findings(), test::sample_context());
    CHECK(xml.find("<testsuites name=\"cuvet\" tests=\"4\" failures=\"2\">") != std::string::npos);
    CHECK(xml.find("<testcase classname=\"cuvet.CUV002\"") != std::string::npos);  // clean check
    CHECK(xml.find("<failure type=\"error\" message=\"libcudnn.so.8 needed by") !=
          std::string::npos);
    CHECK(xml.find("&lt;system&gt; &amp; 8.9.2 &quot;wheel&quot;") != std::string::npos);
    CHECK(xml.find("<system-out>CUDA_VERSION says 11.8.0") != std::string::npos);  // info passes

    test::TempDir dir;
    test::write_file(dir / "check.py", xml_checker);
    test::write_file(dir / "out.xml", xml);
    std::string why;
    int rc = python_check((dir / "check.py").string(), (dir / "out.xml").string(), &why);
    if (rc == 77) {
        CUVET_SKIP("skipped XML well-formedness: no python3");
    }
    INFO(why);
    CHECK(rc == 0);
}

TEST_CASE("checkstyle XML groups by file and parses", "[report][checkstyle]") {
    std::string xml = test::render("checkstyle", test::sample_findings(), test::sample_context());
    CHECK(xml.find("<file name=\"Dockerfile\">") != std::string::npos);
    CHECK(xml.find("<error line=\"7\" column=\"1\" severity=\"warning\"") != std::string::npos);
    CHECK(xml.find("source=\"cuvet.CUV001\"") != std::string::npos);
    test::TempDir dir;
    test::write_file(dir / "check.py", xml_checker);
    test::write_file(dir / "out.xml", xml);
    std::string why;
    int rc = python_check((dir / "check.py").string(), (dir / "out.xml").string(), &why);
    if (rc == 77) return;
    INFO(why);
    CHECK(rc == 0);
}

TEST_CASE("GNU format: one line per finding", "[report][gnu]") {
    std::string out = test::render("gnu", test::sample_findings(), test::sample_context());
    CHECK(
        out ==
        "/opt/app/lib tf/libtf.so: error: libcudnn.so.8 needed by /opt/app/lib tf/libtf.so: not "
        "found [CUV001]\n"
        "Dockerfile:7: warning: two copies: 8.9.0 <system> & 8.9.2 \"wheel\" second line [CUV003]\n"
        "image.tar: info: CUDA_VERSION says 11.8.0 [CUV014]\n");
}

TEST_CASE("GitLab Code Quality: one issue per finding at its Dockerfile line or the artifact",
          "[report][codeclimate]") {
    auto findings = test::sample_findings();
    auto context = test::sample_context();
    context.targets = {"docker-daemon:app:1f2e"};
    auto issues = nlohmann::json::parse(test::render("codeclimate", findings, context));
    REQUIRE(issues.is_array());
    REQUIRE(issues.size() == 3);
    std::set<std::string> fingerprints;
    for (const auto& issue : issues) {
        // The fields GitLab requires of each issue.
        for (const char* field :
             {"description", "check_name", "fingerprint", "severity", "location"}) {
            INFO(field);
            CHECK(issue.contains(field));
        }
        CHECK(issue["location"]["lines"]["begin"].get<int>() >= 1);
        fingerprints.insert(issue["fingerprint"].get<std::string>());
    }
    CHECK(fingerprints.size() == 3);
    CHECK(issues[0]["check_name"] == "CUV001");
    CHECK(issues[0]["severity"] == "blocker");
    CHECK(issues[0]["location"]["path"] == "app");
    CHECK(issues[1]["severity"] == "major");
    CHECK(issues[1]["location"]["path"] == "Dockerfile");
    CHECK(issues[1]["location"]["lines"] == nlohmann::json({{"begin", 7}, {"end", 9}}));
    CHECK(issues[2]["severity"] == "info");
    CHECK(issues[0]["description"] ==
          "CUV001: libcudnn.so.8 needed by /opt/app/lib tf/libtf.so: not found");
    CHECK(issues[0]["content"]["body"] == "Install libcudnn8 or use a -cudnn8 base image");
}
