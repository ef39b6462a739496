// Live findings (CUVGxx) are checks: .cuvet.yaml ignores (and --ignore, which joins the same
// set) and severity overrides reach them as they reach the static ones, in every report format.
// This host may have no GPU, so the findings come from a probe's JSON through probe_findings,
// the code a probe run makes them with, handed to validate the way `validate --probe` does.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cuvet/checks/registry.hpp"
#include "cuvet/config/config.hpp"
#include "cuvet/report/renderer.hpp"
#include "cuvet/rules/database.hpp"
#include "cuvet/sandbox/probe_findings.hpp"
#include "cuvet/sandbox/probe_report.hpp"
#include "cuvet/validate/validate.hpp"
#include "support/build_paths.hpp"
#include "support/process.hpp"
#include "support/sample_image.hpp"
#include "support/skip.hpp"

using namespace cuvet;

namespace {

// A probe that loaded another cuDNN than the inventory expects (CUVG02) and whose half
// convolution is wrong (CUVG04).
const char* const probe_json =
    R"({"probe":"cuvet-probe","schema":1,"mode":"check","reference_self_check":true,
  "driver":{"version":13000,"cuInit":"CUDA_SUCCESS","device_count":1,
            "device":{"index":0,"name":"NVIDIA H100","compute_capability":"9.0","total_memory":1}},
  "runtime":{"status":"cudaSuccess","version":13000,"cudaSetDevice":"cudaSuccess"},
  "cudnn":{"version":91400,"cudart_version":13000,"cudnnCreate":"CUDNN_STATUS_SUCCESS"},
  "conv":[{"dtype":"half","ran":true,"ok":false,"algo":6,"max_abs_error":3.5,"atol":1e-2,"rtol":1e-3,"mismatches":12}],
  "libraries":[{"role":"cudnn","requested":"libcudnn.so.9","loaded":true,
                "path":"/usr/lib/x86_64-linux-gnu/libcudnn.so.9.14.0","error":"","missing_symbols":[]}],
  "loaded_objects":[],"errors":[],"verdict":"conv_mismatch","exit_code":14})";

// The sample image is the image validated; callers skip when it is not built.
validate::Result validate_with_live_findings(const config::Config& config) {
    static const auto db = rules::Database::load();
    validate::Options options;
    options.live_check = [](const image::Image&, validate::Result& result) {
        sandbox::ProbePlan plan;
        plan.expect.cudnn_version = "9.19.0";
        plan.expect.cudnn_source = "/venv/site-packages/nvidia_cudnn_cu13-9.19.0.56.dist-info";
        for (auto& finding : sandbox::probe_findings(sandbox::parse_probe_report(probe_json), plan))
            result.findings.push_back(std::move(finding));
    };
    return validate::validate(test::built_sample_image().string(), options, db, config);
}

std::string rendered(const std::vector<report::Finding>& findings, const std::string& format) {
    report::ReportContext context;
    context.command = "validate";
    context.rules = checks::report_rules(checks::CheckKind::validate);
    for (auto& rule : checks::report_rules(checks::CheckKind::live))
        context.rules.push_back(std::move(rule));
    std::ostringstream out;
    report::make_renderer(format)->render(report::sorted_for_report(findings), context, out);
    return out.str();
}

const report::Finding* with_id(const std::vector<report::Finding>& findings, std::string_view id) {
    for (const auto& finding : findings)
        if (finding.id == id) return &finding;
    return nullptr;
}

// The JUnit test case of a check, up to its end: "<testcase …/>" when it passed.
std::string junit_case(const std::string& xml, const std::string& id) {
    const auto at = xml.find("classname=\"cuvet." + id + "\"");
    if (at == std::string::npos) return {};
    const auto self_closed = xml.find("/>", at);
    const auto opened = xml.find('>', at);
    if (self_closed != std::string::npos && self_closed < opened)
        return xml.substr(at, self_closed + 2 - at);
    return xml.substr(at, xml.find("</testcase>", at) - at);
}

}  // namespace

TEST_CASE("an ignored live check vanishes from every format and a severity override applies",
          "[sandbox][live-checks]") {
    if (test::built_sample_image().empty()) {
        CUVET_SKIP("skipped: the sample image is not built (target sample_image)");
    }
    // Without a config both live findings are reported at their registered severity.
    const auto plain = validate_with_live_findings(config::Config{});
    REQUIRE(with_id(plain.findings, "CUVG02") != nullptr);
    REQUIRE(with_id(plain.findings, "CUVG04") != nullptr);
    CHECK(with_id(plain.findings, "CUVG04")->severity == report::Severity::error);
    CHECK(with_id(plain.findings, "CUVG04")->title == "convolution result mismatch");
    CHECK_THAT(rendered(plain.findings, "text"), Catch::Contains("CUVG02"));

    const auto config =
        config::parse_config("ignore: [cuvg02]\nseverity:\n  CUVG04: warning\n", ".cuvet.yaml");
    const auto result = validate_with_live_findings(config);
    CHECK(with_id(result.findings, "CUVG02") == nullptr);
    REQUIRE(with_id(result.findings, "CUVG04") != nullptr);
    CHECK(with_id(result.findings, "CUVG04")->severity == report::Severity::warning);
    CHECK(with_id(result.silenced, "CUVG02") != nullptr);
    // The static findings stay as they were.
    CHECK(result.findings.size() == plain.findings.size() - 1);

    const std::string text = rendered(result.findings, "text");
    CHECK_THAT(text, !Catch::Contains("CUVG02") && Catch::Contains("CUVG04"));

    const auto json = nlohmann::json::parse(rendered(result.findings, "json"));
    bool json_has_override = false;
    for (const auto& finding : json.at("findings")) {
        CHECK(finding.at("id") != "CUVG02");
        if (finding.at("id") == "CUVG04") json_has_override = finding.at("severity") == "warning";
    }
    CHECK(json_has_override);

    const auto sarif = nlohmann::json::parse(rendered(result.findings, "sarif"));
    bool sarif_has_override = false;
    for (const auto& finding : sarif.at("runs").at(0).at("results")) {
        CHECK(finding.at("ruleId") != "CUVG02");
        if (finding.at("ruleId") == "CUVG04") sarif_has_override = finding.at("level") == "warning";
    }
    CHECK(sarif_has_override);

    // JUnit lists every check as a test case: the ignored one passes, the other fails.
    const std::string junit = rendered(result.findings, "junit");
    const std::string ignored_case = junit_case(junit, "CUVG02");
    REQUIRE_FALSE(ignored_case.empty());
    CHECK_THAT(ignored_case, Catch::EndsWith("/>") && !Catch::Contains("<failure"));
    CHECK_THAT(junit_case(junit, "CUVG04"), Catch::Contains("<failure type=\"warning\""));
}

TEST_CASE("every live finding id is a registered live check with the docs fields filled",
          "[sandbox][live-checks]") {
    const auto live = checks::live_checks();
    REQUIRE(live.size() == 14);
    for (const auto* check : live) {
        INFO(check->info.id);
        const auto* entry = checks::find_check(check->info.id);
        REQUIRE(entry != nullptr);
        CHECK(entry->kind == checks::CheckKind::live);
        CHECK(check->info.id.rfind("CUVG", 0) == 0);
        // The words come from the check's page (docs/checks/CUVGnn.md), through the registry.
        CHECK_FALSE(entry->info->title.empty());
        CHECK_FALSE(entry->info->rationale.empty());
        CHECK_FALSE(entry->info->fix.empty());
        CHECK_FALSE(check->info.name.empty());
    }
    CHECK(checks::find_check("cuvg07")->info->title == "GPU probe did not finish");
}

TEST_CASE("cuvet explain CUVG07 documents a live check", "[sandbox][live-checks][cli]") {
    auto text = test::run_cuvet({"explain", "CUVG07"});
    INFO(text.err);
    REQUIRE(text.exit_code == 0);
    CHECK_THAT(text.out, Catch::StartsWith("CUVG07 probe-did-not-finish (error)\nGPU probe did "
                                           "not finish"));
    auto json =
        nlohmann::json::parse(test::run_cuvet({"explain", "cuvg07", "--format", "json"}).out);
    CHECK(json.at("kind") == "live");
    CHECK(json.at("implemented") == true);
    auto rules = test::run_cuvet({"rules"});
    CHECK_THAT(rules.out, Catch::Contains("14 live;") && Catch::Contains("CUVG16"));
}
