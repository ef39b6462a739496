// Lint judges wheels by the catalog of the rules it loaded, so a frameworks.json from
// --rules-dir or a pulled bundle changes lint without a new binary (issue 37: knowledge ships
// like a database).
#include <catch2/catch.hpp>

#include "cuvet/lint/lint.hpp"
#include "cuvet/rules/database.hpp"
#include "rules/rules_fixtures.hpp"
#include "support/builtin_rules.hpp"
#include "support/temp_dir.hpp"

using namespace cuvet;

namespace {

std::size_t cuvl01_errors(const std::string& text, const rules::Database& db) {
    auto result = lint::lint_text(text, "Dockerfile", db);
    return std::count_if(result.findings.begin(), result.findings.end(), [](const auto& f) {
        return f.id == "CUVL01" && f.severity == report::Severity::error;
    });
}

}  // namespace

TEST_CASE("lint reads wheel policies from the loaded rules, not only the built-in ones",
          "[lint][catalog-wheel]") {
    // torch 2.3 was published for CUDA 11.8 and 12.1 only: the cu122 index has no such wheel.
    const std::string text =
        "FROM nvidia/cuda:12.2.2-runtime-ubuntu22.04\n"
        "RUN pip install torch==2.3.0 --index-url https://download.pytorch.org/whl/cu122\n";
    CHECK(cuvl01_errors(text, test::db()) == 1);

    // A bundle whose torch policy no longer says the rows list every build: unknown, not never
    // published.
    test::TempDir dir;
    auto frameworks = test::builtin_table("frameworks.json");
    auto& torch = frameworks["catalog"][0]["pip"][0];
    REQUIRE(torch["name"] == "torch");
    torch["wheel"].erase("complete_builds");
    test::write_file(dir / "frameworks.json", frameworks.dump());
    const auto overridden = rules::Database::load(dir.path());
    CHECK(overridden.framework_catalog().wheel("torch")->policy->complete_builds == false);
    CHECK(cuvl01_errors(text, overridden) == 0);
}
