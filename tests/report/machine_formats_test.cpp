// JSON, SARIF, JUnit, checkstyle and GNU output: structure, and validity checked
// by independent parsers (nlohmann for JSON, python3's xml.etree for XML, the
// official SARIF JSON schema through python3-jsonschema).
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "report_fixture.hpp"
#include "support/process.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"

using namespace cuvet;

namespace {

// 0 valid, 1 invalid (messages in `why`), 77 validator unavailable.
int python_check(const std::string& script, const std::string& file, std::string* why) {
    if (!test::have_program("python3")) return 77;
    auto result = test::run_shell("python3 " + test::shell_quote(script) + " " + test::shell_quote(file));
    if (why) *why = result.out + result.err;
    return result.exit_code;
}

const std::string xml_checker = R"(
import sys, xml.etree.ElementTree as ET
ET.parse(sys.argv[1])
)";

}  // namespace

TEST_CASE("JSON report follows schema cuvet-report v1", "[report][json]") {
    auto doc = nlohmann::json::parse(test::render("json", test::sample_findings(), test::sample_context()));
    CHECK(doc["schema"] == "cuvet-report");
    CHECK(doc["schema_version"] == 1);
    CHECK(doc["tool"]["name"] == "cuvet");
    CHECK(doc["command"] == "validate");
    CHECK(doc["targets"] == nlohmann::json::array({"image.tar"}));
    CHECK(doc["summary"] == nlohmann::json({{"total", 3}, {"error", 1}, {"warning", 1}, {"info", 0 + 1}}));
    REQUIRE(doc["findings"].size() == 3);
    const auto& first = doc["findings"][0];
    CHECK(first["id"] == "CUV001");  // errors first
    CHECK(first["severity"] == "error");
    CHECK(first["locations"][0]["file"] == "/opt/app/lib tf/libtf.so");
    CHECK_FALSE(first["locations"][0].contains("line"));
    CHECK(first["evidence"].size() == 2);
    CHECK(doc["findings"][1]["locations"][0]["line"] == 7);
    CHECK(doc["findings"][1]["locations"][0]["end_line"] == 9);
    CHECK(doc["findings"][1]["message"] == "two copies: 8.9.0 <system> & 8.9.2 \"wheel\"\nsecond line");
}

TEST_CASE("SARIF output has the 2.1.0 structure", "[report][sarif]") {
    auto doc = nlohmann::json::parse(test::render("sarif", test::sample_findings(), test::sample_context()));
    CHECK(doc["version"] == "2.1.0");
    const auto& run = doc["runs"][0];
    CHECK(run["tool"]["driver"]["name"] == "cuvet");
    CHECK(run["tool"]["driver"]["rules"].size() == 4);
    CHECK(run["tool"]["driver"]["rules"][0]["defaultConfiguration"]["level"] == "error");
    const auto& results = run["results"];
    REQUIRE(results.size() == 3);
    CHECK(results[0]["ruleId"] == "CUV001");
    CHECK(results[0]["ruleIndex"] == 0);
    CHECK(results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] ==
          "/opt/app/lib%20tf/libtf.so");
    CHECK(results[1]["locations"][0]["physicalLocation"]["region"]["startLine"] == 7);
    CHECK(results[2]["level"] == "note");  // info
    // No location of its own: the image is the location, so code scanning keeps it.
    CHECK(results[2]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "image.tar");
}

TEST_CASE("SARIF output validates against the official 2.1.0 schema", "[report][sarif]") {
    test::TempDir dir;
    std::string sarif = (dir / "out.sarif").string();
    test::write_file(sarif, test::render("sarif", test::sample_findings(), test::sample_context()));
    std::string schema = std::string(CUVET_SOURCE_DIR) + "/tests/report/data/sarif-2.1.0-rtm.5.json";
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

TEST_CASE("JUnit XML: one failing case per finding, one passing case per clean check", "[report][junit]") {
    std::string xml = test::render("junit", test::sample_findings(), test::sample_context());
    CHECK(xml.find("<testsuites name=\"cuvet\" tests=\"4\" failures=\"2\">") != std::string::npos);
    CHECK(xml.find("<testcase classname=\"cuvet.CUV002\"") != std::string::npos);  // clean check
    CHECK(xml.find("<failure type=\"error\" message=\"libcudnn.so.8 needed by") != std::string::npos);
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
    CHECK(out ==
          "/opt/app/lib tf/libtf.so: error: libcudnn.so.8 needed by /opt/app/lib tf/libtf.so: not found [CUV001]\n"
          "Dockerfile:7: warning: two copies: 8.9.0 <system> & 8.9.2 \"wheel\" second line [CUV003]\n"
          "image.tar: info: CUDA_VERSION says 11.8.0 [CUV014]\n");
}
