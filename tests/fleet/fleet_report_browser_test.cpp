// The fleet report's HTML page in a real browser (Debian's chromium, headless, offline): a
// header click sorts, typing filters, the page loads nothing but itself and throws nothing.
// The report comes from real `fleet scan` results; a screenshot of it is left in the build tree.
#include <algorithm>
#include <catch2/catch.hpp>
#include <iostream>

#include "fleet/fleet_fixtures.hpp"
#include "image/registry/http_client.hpp"
#include "support/headless_chromium.hpp"
#include "support/process.hpp"
#include "support/skip.hpp"

using namespace cuvet;
using namespace cuvet::test;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// Five images over the proof's three bases, named so that neither the report's own order
// nor the order the archives are listed in is sorted by name.
struct Named {
    std::string name;
    std::size_t base;
};
const std::vector<Named> fleet_images = {
    {"zeta-cuda12", 0}, {"alpha-cuda12", 0}, {"mid-cuda11", 1}, {"beta-plain", 2}, {"omega", 2}};

std::string write_fleet(const TempDir& tmp) {
    const std::vector<Layer> bases = {cuda_base("12.4.1"), cuda_base("11.8.0"), cuda_base("")};
    std::string list;
    for (const auto& image : fleet_images) {
        ImageSpec spec;
        Layer own;
        own.entries = {dir("app/"), file("app/name", image.name + "\n")};
        spec.layers = {bases[image.base], own};
        const fs::path archive = tmp / (image.name + ".tar");
        docker_archive({spec}).write_tar(archive);
        list += archive.string() + "\n";
    }
    return list;
}

// The first cell of each row of the images table that is laid out (not hidden), top to bottom.
std::vector<std::string> shown_images(HeadlessChromium& browser) {
    return browser
        .evaluate(
            "Array.from(document.querySelectorAll('#images tbody tr'))"
            ".filter(r => r.getClientRects().length > 0).map(r => r.cells[0].textContent)")
        .get<std::vector<std::string>>();
}

}  // namespace

TEST_CASE("fleet report HTML: sorts and filters in headless chromium, offline, screenshot saved",
          "[fleet][integration]") {
    if (!have_program("chromium"))
        CUVET_SKIP("chromium is not installed (apt-get install chromium)");
    TempDir tmp;
    write_file(tmp / "fleet.txt", write_fleet(tmp));
    write_file(tmp / "nodes.json", two_pools());
    const fs::path out = tmp / "out", page = tmp / "fleet.html";
    auto scan = run_cuvet({"fleet", "scan", "--list", (tmp / "fleet.txt").string(), "--nodes",
                           (tmp / "nodes.json").string(), "--out", out.string()});
    INFO(scan.err);
    REQUIRE(scan.exit_code == 0);
    REQUIRE(result_files(out) == fleet_images.size());
    auto report =
        run_cuvet({"fleet", "report", out.string(), "--format", "html", "-o", page.string()});
    INFO(report.err);
    REQUIRE(report.exit_code == 1);  // the CUDA 12.4 images cannot run on the 470 pool

    HeadlessChromium browser;
    const std::string url = "file://" + page.string();
    browser.open(url);
    // The page is all there is: no request but its own, nothing refused by its own
    // Content-Security-Policy, and its script ran without an error.
    CHECK(browser.requested_urls() == std::vector<std::string>{url});
    CHECK(browser.errors().empty());

    // The report lists images by reference; each click below must change the order shown,
    // so a sort that does nothing fails.
    const auto listed = shown_images(browser);
    REQUIRE(listed.size() == fleet_images.size());
    REQUIRE(std::is_sorted(listed.begin(), listed.end()));
    auto verdict_of = [](const std::string& image) {
        return image.find("cuda12") != std::string::npos ? "fail" : "pass";
    };
    auto by_verdict = listed;  // the page's sort is stable: equal verdicts keep their order
    std::stable_sort(by_verdict.begin(), by_verdict.end(),
                     [&](const auto& a, const auto& b) { return verdict_of(a) < verdict_of(b); });
    REQUIRE(by_verdict != listed);
    const auto descending = std::vector<std::string>(listed.rbegin(), listed.rend());

    browser.click("#images th:nth-child(2)");  // verdict
    CHECK(shown_images(browser) == by_verdict);
    browser.click("#images th:nth-child(1)");  // image, ascending
    CHECK(shown_images(browser) == listed);
    browser.click("#images th:nth-child(1)");  // and descending
    CHECK(shown_images(browser) == descending);
    // The header says which way its column is sorted (CSS after its data-order), and only
    // the column last sorted says so.
    CHECK(browser.evaluate("document.querySelectorAll('#images th[data-order]').length") == 1);
    CHECK(browser.evaluate("getComputedStyle(document.querySelector('#images th'), '::after')"
                           ".content") == "\" \u25BC\"");

    // Typed in any case, matched in any case, the sort order kept.
    browser.click("input.filter[data-table=images]");
    browser.type("CUDA12");
    std::vector<std::string> cuda12;
    std::copy_if(
        descending.begin(), descending.end(), std::back_inserter(cuda12),
        [](const std::string& image) { return image.find("cuda12") != std::string::npos; });
    REQUIRE(cuda12.size() == 2);
    CHECK(shown_images(browser) == cuda12);
    CHECK(browser.evaluate("Array.from(document.querySelectorAll('#images tbody tr'))"
                           ".filter(r => r.getClientRects().length > 0)"
                           ".every(r => r.cells[1].textContent === 'fail')") == true);

    const std::string png = image::base64_decode(browser.screenshot_png_base64());
    REQUIRE(png.rfind("\x89PNG\r\n\x1a\n", 0) == 0);
    const fs::path shot = fs::path(CUVET_BUILD_DIR) / "test-output" / "fleet-report.png";
    fs::create_directories(shot.parent_path());
    write_file(shot, png);
    std::cout << "fleet report screenshot (images sorted by name, descending, filtered on CUDA12): "
              << shot.string() << "\n";
}
