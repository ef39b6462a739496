// Merging fleet results: counts, causes, pools, bytes, changes; Markdown and HTML that escape
// what comes from images.
#include <catch2/catch.hpp>

#include "cuvet/core/error.hpp"
#include "cuvet/fleet/report.hpp"
#include "cuvet/fleet/result_store.hpp"

using namespace cuvet;
using nlohmann::json;

namespace {

json finding(const std::string& id, const std::string& severity, const std::string& file) {
    json locations = json::array();
    locations.push_back({{"file", file}});
    return {{"id", id}, {"severity", severity}, {"title", id + " title"}, {"locations", locations}};
}

json pool(const std::string& name, const std::string& driver, const std::string& verdict,
          const json& errors) {
    return {
        {"name", name},    {"nodes", 2},         {"driver", driver}, {"gpu", "7.5"},
        {"product", "T4"}, {"verdict", verdict}, {"errors", errors}, {"warnings", json::array()}};
}

json result(const std::string& reference, const std::string& verdict, const json& findings,
            const json& pools) {
    return {{"schema", fleet::result_schema},
            {"key", "sha256:" + reference},
            {"digest", "sha256:" + reference},
            {"references", {reference}},
            {"base_layer", "sha256:base"},
            {"verdict", verdict},
            {"image_bytes", 1000},
            {"bytes_inflated", 300},
            {"pools", pools},
            {"report", json::object({{"findings", findings}})}};
}

std::vector<json> fleet_results() {
    const json cudart =
        finding("CUV009", "error", "/usr/local/cuda-12.4/lib64/libcudart.so.12.4.1");
    return {
        result("reg/a:1", "fail", json::array({cudart}),
               {pool("t4-legacy", "470.57.02", "fail", json::array({"CUV009"})),
                pool("h100", "550.54.15", "pass", json::array())}),
        result("reg/b:<script>alert(1)</script>", "fail", json::array({cudart}),
               {pool("t4-legacy", "470.57.02", "fail", json::array({"CUV009"})),
                pool("h100", "550.54.15", "pass", json::array())}),
        result("reg/c:1", "pass", json::array(),
               {pool("t4-legacy", "470.57.02", "pass", json::array()),
                pool("h100", "550.54.15", "pass", json::array())}),
        {{"schema", fleet::result_schema},
         {"key", "sha256:d"},
         {"digest", nullptr},
         {"references", {"reg/d:1"}},
         {"verdict", "error"},
         {"error", "docker://reg/d:1: manifest unknown"},
         {"image_bytes", nullptr},
         {"bytes_inflated", 0},
         {"pools", json::array()}},
    };
}

}  // namespace

TEST_CASE("fleet report: images by verdict, causes by check and library, pools, bytes", "[fleet]") {
    const json report = fleet::merge_results(fleet_results());
    CHECK(report["counts"] ==
          json{{"images", 4}, {"pass", 1}, {"warn", 0}, {"fail", 2}, {"error", 1}});
    REQUIRE(report["causes"].size() == 1);
    CHECK(report["causes"][0]["check"] == "CUV009");
    CHECK(report["causes"][0]["library"] == "libcudart");
    CHECK(report["causes"][0]["images"] == 2);
    REQUIRE(report["pools"].size() == 2);
    CHECK(report["pools"][0]["name"] == "h100");
    CHECK(report["pools"][0]["cannot_run"] == 0);
    CHECK(report["pools"][1]["name"] == "t4-legacy");
    CHECK(report["pools"][1]["cannot_run"] == 2);
    CHECK(report["pools"][1]["checks"] == json{{"CUV009", 2}});
    CHECK(report["bytes"]["inflated"] == 900);
    CHECK(report["bytes"]["image_sizes"] == 3000);

    const std::string markdown = fleet::render_markdown(report);
    CHECK(markdown.find("| t4-legacy | 470.57.02 | 7.5 | 3 | 2 | CUV009 (2) |") !=
          std::string::npos);
    CHECK(markdown.find("<script>") == std::string::npos);
    CHECK(markdown.find("docker://reg/d:1: manifest unknown") != std::string::npos);

    const std::string html = fleet::render_html(report);
    CHECK(html.find("reg/b:&lt;script&gt;alert(1)&lt;/script&gt;") != std::string::npos);
    CHECK(html.find("<script>alert") == std::string::npos);
    // No external asset, no link out.
    CHECK(html.find("<link") == std::string::npos);
    CHECK(html.find(" src=") == std::string::npos);
    CHECK(html.find(" href=") == std::string::npos);
}

TEST_CASE("fleet report: what changed since the previous report, per reference", "[fleet]") {
    auto before = fleet_results();
    before[0]["verdict"] = "pass";                         // a:1 fails now
    before[2]["verdict"] = "fail";                         // c:1 is fixed
    before[3]["references"] = json::array({"reg/old:1"});  // d:1 is new, old:1 is gone
    json report = fleet::merge_results(fleet_results());
    fleet::add_changes(report, fleet::merge_results(before), "last.json");
    const json& changes = report["changes"];
    CHECK(changes["newly_failing"] == json{"reg/a:1"});
    CHECK(changes["fixed"] == json{"reg/c:1"});
    CHECK(changes["new_images"] == json{"reg/d:1"});
    CHECK(changes["gone"] == json{"reg/old:1"});
    CHECK(fleet::render_markdown(report).find("- newly_failing: 1 (reg/a:1)") != std::string::npos);
    try {
        fleet::add_changes(report, json{{"schema", "cuvet-report"}}, "last.json");
        FAIL("a validate report was taken for a fleet report");
    } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::input);
        CHECK(std::string(e.what()) ==
              "last.json: not a cuvet fleet report (schema cuvet-fleet-report)");
    }
}
