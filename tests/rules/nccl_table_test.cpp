// rules/nccl.json: the real table's facts and how a bad file is refused.
#include <string>
#include <vector>

#include "rules/rules_fixtures.hpp"

using cuvet::rules::Database;
using cuvet::rules::Version;
using namespace cuvet::test;

TEST_CASE("nccl: NVIDIA's builds per release", "[rules][nccl]") {
    // NVIDIA's download index for 2.30.7 holds a CUDA 12.9 and a CUDA 13.3 build, nothing else.
    const auto* newest = db().nccl_release(v("2.30.7"));
    REQUIRE(newest);
    CHECK(newest->cuda == std::vector<Version>{v("12.9"), v("13.3")});
    CHECK(newest->complete);
    CHECK(newest->built_for_major(13) == std::optional<bool>(true));
    CHECK(newest->built_for_major(11) == std::optional<bool>(false));
    CHECK(newest->provenance.confidence.empty());

    // 2.10.3: CUDA 10.2, 11.0 and 11.4, as the index and the release notes say.
    const auto* old = db().nccl_release(v("2.10.3"));
    REQUIRE(old);
    CHECK(old->cuda.size() == 3);
    CHECK(old->built_for_major(10) == std::optional<bool>(true));
    const auto* cuda11_6 = db().nccl_release(v("2.12.12"));
    REQUIRE(cuda11_6);
    CHECK(cuda11_6->cuda.back() == v("11.6"));

    // A partial list says nothing about the majors it does not name.
    const auto* partial = db().nccl_release(v("2.19.3"));
    REQUIRE(partial);
    CHECK_FALSE(partial->complete);
    CHECK(partial->built_for_major(12) == std::optional<bool>(true));
    CHECK_FALSE(partial->built_for_major(11).has_value());

    // A release nobody read is not in the table (no nearest row).
    CHECK_FALSE(db().nccl_release(v("2.30.6")));
    CHECK(db().newest_entry("nccl") == "2.30.7");
}

TEST_CASE("nccl: the NCCL each PyTorch CUDA variant pins", "[rules][nccl]") {
    // RELEASE.md / pytorch/pytorch#190386: 2.12 builds CUDA 12.6 with NCCL 2.29.3 and
    // CUDA 13.x with 2.29.7; 2.11 uses 2.28.9 everywhere; 2.14 moves CUDA 13 to 2.30.7.
    auto pinned = [](const char* torch, const char* variant) {
        const auto* pin = db().nccl_pin("pytorch", v(torch), variant);
        return pin ? pin->nccl.str() : std::string("unknown");
    };
    CHECK(pinned("2.12.1", "cu126") == "2.29.3");
    CHECK(pinned("2.12.0", "cu130") == "2.29.7");
    CHECK(pinned("2.11.0", "cu128") == "2.28.9");
    CHECK(pinned("2.10.0", "cu130") == "2.28.9");
    CHECK(pinned("2.10.0", "cu126") == "2.27.5");
    const auto* newest = db().nccl_pin("pytorch", v("2.14.0"), "cu132");
    REQUIRE(newest);
    CHECK(newest->nccl == v("2.30.7"));
    CHECK(newest->provenance.confidence == "secondary");
    // No source names the NCCL of 2.13's cu129 build or of releases before 2.10.
    CHECK_FALSE(db().nccl_pin("pytorch", v("2.13.0"), "cu129"));
    CHECK_FALSE(db().nccl_pin("pytorch", v("2.9.0"), "cu128"));
    CHECK_FALSE(db().nccl_pin("pytorch", v("2.14.0"), ""));

    // Every pinned build is a build frameworks.json knows.
    for (const auto& pin : db().nccl_pins()) {
        INFO(pin.framework << " " << pin.version.str() << " " << pin.variant);
        CHECK(db().framework_build(pin.framework, pin.version, pin.variant) != nullptr);
        CHECK_FALSE(pin.provenance.source.url.empty());
    }
}

TEST_CASE("nccl: a bad table is refused with a pointer to the fact", "[rules][nccl]") {
    auto nccl = builtin_table("nccl.json");
    SECTION("an unknown key") {
        nccl["releases"][0]["cuda_majors"] = {12};
        CHECK(load_error_with("nccl.json", nccl) ==
              "rules/nccl.json: /releases/0/cuda_majors: unexpected key 'cuda_majors'");
    }
    SECTION("an unknown top-level array") {
        nccl["pins"] = nlohmann::json::array();
        CHECK(load_error_with("nccl.json", nccl) ==
              "rules/nccl.json: /pins: unexpected key 'pins'");
    }
    SECTION("a release without a source") {
        nccl["releases"][1].erase("source");
        CHECK(load_error_with("nccl.json", nccl) ==
              "rules/nccl.json: /releases/1: missing required key 'source'");
    }
    SECTION("a pin without a source") {
        nccl["framework_pins"][0].erase("source");
        CHECK(load_error_with("nccl.json", nccl) ==
              "rules/nccl.json: /framework_pins/0: missing required key 'source'");
    }
    SECTION("a source that names nothing") {
        nccl["framework_pins"][2]["source"] = "nowhere";
        CHECK(load_error_with("nccl.json", nccl) ==
              "rules/nccl.json: /framework_pins/2/source: unknown source "
              "'nowhere' (not in /sources)");
    }
    SECTION("a release with no build") {
        nccl["releases"][0]["cuda"] = nlohmann::json::array();
        CHECK(load_error_with("nccl.json", nccl) ==
              "rules/nccl.json: /releases/0/cuda: expected at least one CUDA release");
    }
    SECTION("a release listed twice") {
        nccl["releases"].push_back(nccl["releases"][0]);
        CHECK_THAT(load_error_with("nccl.json", nccl), Catch::Contains("is listed twice"));
    }
    SECTION("one build pinned twice") {
        nccl["framework_pins"].push_back(nccl["framework_pins"][0]);
        CHECK_THAT(load_error_with("nccl.json", nccl), Catch::Contains("is listed twice"));
    }
}
