// rules/kernel_compilers.json (OpenAI Triton, pinned by PyTorch): the real table's facts and
// how a bad file is refused.
#include <string>
#include <vector>

#include "rules/rules_fixtures.hpp"

using cuvet::rules::Database;
using cuvet::rules::Version;
using namespace cuvet::test;

namespace {

// The Triton release a torch release pins, "unknown" when the table does not say.
const cuvet::rules::KernelCompiler& triton() {
    const auto* compiler = db().kernel_compiler("triton");
    REQUIRE(compiler);
    return *compiler;
}

std::string triton_of(const char* torch) {
    const auto* release = triton().pinned_by_release(v(torch));
    return release ? release->version.str() : std::string("unknown");
}

}  // namespace

TEST_CASE("triton: the release each torch release pins", "[rules][kernel_compilers]") {
    CHECK(triton_of("2.4.0") == "3.0.0");
    CHECK(triton_of("2.5.1") == "3.1.0");
    CHECK(triton_of("2.6.0") == "3.2.0");
    CHECK(triton_of("2.7.0") == "3.3.0");
    CHECK(triton_of("2.7.1") == "3.3.1");
    CHECK(triton_of("2.8.0") == "3.4.0");
    CHECK(triton_of("2.9.0") == "3.5.0");
    CHECK(triton_of("2.9.1") == "3.5.1");
    CHECK(triton_of("2.10.0") == "3.6.0");
    CHECK(triton_of("2.11.0") == "3.6.0");
    // pytorch/pytorch#186814: 3.7.0 for 2.12.0, 3.7.1 for the 2.12.1 patch release.
    CHECK(triton_of("2.12.0") == "3.7.0");
    CHECK(triton_of("2.12.1") == "3.7.1");
    CHECK(triton_of("2.13.0") == "3.7.1");
    CHECK(triton_of("2.14.0") == "3.8.0");
    // Releases no source pairs stay unknown rather than borrowing a neighbour's pin.
    CHECK(triton_of("2.4.1") == "unknown");
    CHECK(triton_of("2.15.0") == "unknown");
    CHECK(triton_of("2.3.1") == "unknown");

    const auto* release = triton().release(v("3.7.0"));
    REQUIRE(release);
    CHECK(release->pinned_by == std::vector<Version>{v("2.12.0")});
    CHECK(release->provenance.source.url == "https://github.com/pytorch/pytorch/pull/186814");
    CHECK(triton().pinned_by == "pytorch");
    CHECK(db().newest_entry("kernel_compilers") == "triton 3.9.0");
}

TEST_CASE("triton: the ptxas each wheel bundles", "[rules][kernel_compilers]") {
    // Read from the PyPI wheels (triton-lang/triton#10331): 3.5.0 has one ptxas for every
    // target, 3.6.0 adds ptxas-blackwell from CUDA 12.9, 3.7.0 moves it to CUDA 13.1.
    const auto* v350 = triton().release(v("3.5.0"));
    REQUIRE(v350);
    REQUIRE(v350->ptxas);
    CHECK(v350->ptxas->str() == "12.8.93");
    CHECK_FALSE(v350->ptxas_blackwell);
    CHECK(v350->blackwell_uses_ptxas);

    const auto* v360 = triton().release(v("3.6.0"));
    REQUIRE(v360);
    REQUIRE(v360->ptxas_blackwell);
    CHECK(v360->ptxas_blackwell->str() == "12.9.86");
    CHECK_FALSE(v360->blackwell_uses_ptxas);
    // The assemblers come from another source than the torch pins, and carry it.
    CHECK(v360->ptxas_provenance.source.url ==
          "https://github.com/triton-lang/triton/issues/10331");
    CHECK(v360->ptxas_provenance.confidence == "secondary");

    const auto* v370 = triton().release(v("3.7.0"));
    REQUIRE(v370);
    REQUIRE(v370->ptxas_blackwell);
    CHECK(v370->ptxas_blackwell->major() == 13);

    // Not read from release/3.4.x: unknown, not "none".
    const auto* v340 = triton().release(v("3.4.0"));
    REQUIRE(v340);
    CHECK_FALSE(v340->ptxas);
    CHECK_FALSE(v340->ptxas_blackwell);
    CHECK_FALSE(v340->blackwell_uses_ptxas);

    // Every bundled ptxas is of a CUDA release the driver table knows.
    for (const auto& row : triton().releases) {
        INFO("Triton " << row.version.str());
        CHECK_FALSE(row.provenance.source.url.empty());
        for (const auto& ptxas : {row.ptxas, row.ptxas_blackwell}) {
            if (ptxas) {
                CHECK(db().min_driver_for(*ptxas));
            }
        }
    }
}

TEST_CASE("triton: a bad table is refused with a pointer to the fact",
          "[rules][kernel_compilers]") {
    auto table = builtin_table("kernel_compilers.json");
    auto& rows = table["compilers"][0]["releases"];
    SECTION("an unknown key") {
        rows[0]["cuda"] = "12.4";
        CHECK(load_error_with("kernel_compilers.json", table) ==
              "rules/kernel_compilers.json: /compilers/0/releases/0/cuda: unexpected key 'cuda'");
    }
    SECTION("a release without a source") {
        rows[2].erase("source");
        CHECK(
            load_error_with("kernel_compilers.json", table) ==
            "rules/kernel_compilers.json: /compilers/0/releases/2: missing required key 'source'");
    }
    SECTION("ptxas evidence without a source") {
        rows[0]["ptxas_evidence"] = {{"confidence", "secondary"}};
        CHECK(load_error_with("kernel_compilers.json", table) ==
              "rules/kernel_compilers.json: /compilers/0/releases/0/ptxas_evidence: missing "
              "required key 'source'");
    }
    SECTION("an unknown key in the ptxas evidence") {
        rows[0]["ptxas_evidence"] = {{"source", "pypi-triton"}, {"url", "x"}};
        CHECK(load_error_with("kernel_compilers.json", table) ==
              "rules/kernel_compilers.json: /compilers/0/releases/0/ptxas_evidence/url: unexpected "
              "key 'url'");
    }
    SECTION("a ptxas that is neither a version, \"none\" nor null") {
        rows[0]["ptxas_blackwell"] = "absent";
        CHECK_THAT(
            load_error_with("kernel_compilers.json", table),
            Catch::StartsWith("rules/kernel_compilers.json: "
                              "/compilers/0/releases/0/ptxas_blackwell: expected a version"));
    }
    SECTION("one torch release pinning two Triton releases") {
        rows[1]["pinned_by"].push_back("2.4.0");
        CHECK(load_error_with("kernel_compilers.json", table) ==
              "rules/kernel_compilers.json: /compilers/0/releases/1/pinned_by/1: pytorch 2.4.0 "
              "already pins triton 3.0.0");
    }
    SECTION("a release listed twice") {
        rows.push_back(rows[0]);
        CHECK_THAT(load_error_with("kernel_compilers.json", table),
                   Catch::Contains("is listed twice"));
    }
}
