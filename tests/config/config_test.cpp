#include "cuvet/config/config.hpp"

#include <catch2/catch.hpp>

#include "cuvet/core/error.hpp"
#include "support/temp_dir.hpp"

using namespace cuvet;

namespace {
std::string parse_error(const std::string& yaml) {
    try {
        config::parse_config(yaml, ".cuvet.yaml");
    } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::input);
        return e.what();
    }
    return {};
}
}  // namespace

TEST_CASE(".cuvet.yaml: every setting", "[config]") {
    auto config = config::parse_config(R"(
ignore: [CUV013, cuvl03]
severity:
  CUV003: error
  cuv014: info
targets:
  drivers: ["535.104.05", 550.54.15]
  gpus: [H100, "8.6", sm_90]
trusted_library_dirs: [/opt/vendor/lib]
fail_on: warning
)",
                                       ".cuvet.yaml");
    CHECK(config.ignored == std::set<std::string>{"CUV013", "CUVL03"});
    CHECK(config.severity.at("CUV003") == report::Severity::error);
    CHECK(config.severity.at("CUV014") == report::Severity::info);
    REQUIRE(config.drivers.size() == 2);
    CHECK(config.drivers[0].str() == "535.104.05");
    CHECK(config.drivers[1].str() == "550.54.15");
    CHECK(config.gpus == std::vector<std::string>{"H100", "8.6", "sm_90"});
    CHECK(config.trusted_library_dirs == std::vector<std::string>{"/opt/vendor/lib"});
    CHECK(config.fail_on == report::FailOn::warning);
}

TEST_CASE(".cuvet.yaml: an empty file is the defaults", "[config]") {
    auto config = config::parse_config("", "x");
    CHECK(config.ignored.empty());
    CHECK_FALSE(config.fail_on);
    CHECK(config::parse_config("# only a comment\n", "x").drivers.empty());
}

TEST_CASE(".cuvet.yaml: errors name the line and column", "[config]") {
    CHECK(parse_error("ignore: [CUV001\n").rfind(".cuvet.yaml:2:", 0) ==
          0);  // unclosed flow sequence
    CHECK(parse_error("ignore: [CUV001]\nfail_on: sometimes\n") ==
          ".cuvet.yaml:2:10: fail_on: expected error, warning, info or never");
    CHECK(parse_error("ignore: [CUV001]\nignroe: [CUV002]\n") ==
          ".cuvet.yaml:2:1: unknown key 'ignroe' (expected ignore, severity, targets, "
          "trusted_library_dirs, fail_on)");
    CHECK(parse_error("targets:\n  drivers: [five]\n") ==
          ".cuvet.yaml:2:13: targets.drivers: expected a driver version such as 535.104.05");
    CHECK(parse_error("severity:\n  CUV001: fatal\n") ==
          ".cuvet.yaml:2:11: severity.CUV001: expected error, warning or info");
    CHECK(parse_error("ignore: [DL3008]\n") ==
          ".cuvet.yaml:1:10: 'DL3008' is not a check id (CUV001, CUVL01, …)");
    CHECK(parse_error("- a\n- b\n") == ".cuvet.yaml:1:1: expected a mapping at the top level");
    CHECK(parse_error("trusted_library_dirs: [lib]\n").find("not an absolute path") !=
          std::string::npos);
    CHECK(parse_error("key: \"unterminated\n").rfind(".cuvet.yaml:", 0) == 0);
}

TEST_CASE(".cuvet.yaml is found in the working directory or given with --config", "[config]") {
    test::TempDir dir;
    CHECK(config::load_config(std::nullopt, dir.path()).path.empty());  // none: defaults
    test::write_file(dir / ".cuvet.yaml", "ignore: [CUV002]\n");
    auto found = config::load_config(std::nullopt, dir.path());
    CHECK(found.path == (dir / ".cuvet.yaml").string());
    CHECK(found.ignored.count("CUV002"));
    test::write_file(dir / "other.yaml", "fail_on: never\n");
    auto given = config::load_config(dir / "other.yaml", dir.path());
    CHECK(given.fail_on == report::FailOn::never);
    try {
        config::load_config(dir / "missing.yaml", dir.path());
        FAIL("no error");
    } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::io);
    }
}

TEST_CASE("config drops ignored findings and overrides severities", "[config]") {
    config::Config config;
    config.ignored = {"CUV002"};
    config.severity = {{"CUV003", report::Severity::info}};
    std::vector<report::Finding> findings(3);
    findings[0].id = "CUV002";
    findings[1].id = "cuv003";
    findings[1].severity = report::Severity::error;
    findings[2].id = "CUV001";
    findings[2].severity = report::Severity::error;
    const auto silenced = config::apply(config, findings);
    REQUIRE(silenced.size() == 1);  // what was dropped is given back, to be shown
    CHECK(silenced[0].id == "CUV002");
    REQUIRE(findings.size() == 2);
    CHECK(findings[0].severity == report::Severity::info);
    CHECK(findings[1].severity == report::Severity::error);
}
