// The fleet fact store's entries (cuvet/cache/sealed_facts.hpp): they open only under the key
// they were sealed with, for the layer they were sealed for, whole.
#include "cuvet/cache/sealed_facts.hpp"

#include <catch2/catch.hpp>

#include "cuvet/cache/store.hpp"

using namespace cuvet;

namespace {

const std::string fleet_key = "0123456789abcdef-fleet";
const std::string layer_a = "sha256:" + std::string(64, 'a');
const std::string layer_b = "sha256:" + std::string(64, 'b');

cache::LayerFacts some_facts() {
    cache::LayerFacts facts;
    image::FileEntry entry;
    entry.path = "usr/lib/libcudart.so.12";
    entry.type = image::FileType::regular;
    entry.size = 42;
    facts.listing.entries = {entry};
    facts.listing.whiteouts = {"etc/.wh.old"};
    facts.not_elf = {"usr/lib/README"};
    facts.texts["usr/local/cuda/version.json"] = "{\"cuda\": {\"version\": \"12.4.1\"}}";
    return facts;
}

}  // namespace

TEST_CASE("sealed facts open under their key for their layer", "[fleet][cache]") {
    const std::string entry = cache::seal_facts(fleet_key, layer_a, some_facts());
    const auto opened = cache::unseal_facts(fleet_key, layer_a, entry);
    REQUIRE(opened.facts);
    CHECK(opened.refused.empty());
    REQUIRE(opened.facts->listing.entries.size() == 1);
    CHECK(opened.facts->listing.entries[0].path == "usr/lib/libcudart.so.12");
    CHECK(opened.facts->listing.whiteouts == std::vector<std::string>{"etc/.wh.old"});
    CHECK(opened.facts->texts.at("usr/local/cuda/version.json").find("12.4.1") !=
          std::string::npos);
}

TEST_CASE("sealed facts: another key, another layer, an edit or a cut are refused",
          "[fleet][cache]") {
    const std::string entry = cache::seal_facts(fleet_key, layer_a, some_facts());

    SECTION("sealed with another key (forged by whoever can push to the registry)") {
        const auto opened = cache::unseal_facts("another-key-0123456789", layer_a, entry);
        CHECK_FALSE(opened.facts);
        CHECK(opened.refused == "not sealed with this fleet's key");
    }
    SECTION("replayed under another layer's name") {
        const auto opened = cache::unseal_facts(fleet_key, layer_b, entry);
        CHECK_FALSE(opened.facts);
        CHECK(opened.refused == "sealed for layer " + layer_a);
    }
    SECTION("one byte of the payload changed") {
        std::string edited = entry;
        edited[entry.size() / 2] ^= 0x20;
        CHECK(cache::unseal_facts(fleet_key, layer_a, edited).refused ==
              "not sealed with this fleet's key");
    }
    SECTION("cut short, or not an entry at all") {
        CHECK_FALSE(
            cache::unseal_facts(fleet_key, layer_a, entry.substr(0, entry.size() - 1)).facts);
        CHECK(cache::unseal_facts(fleet_key, layer_a, "{}").refused ==
              "not a cuvet fact-store entry");
        CHECK(cache::unseal_facts(fleet_key, layer_a, "").refused ==
              "not a cuvet fact-store entry");
    }
    SECTION("an empty key opens nothing") {
        CHECK_FALSE(
            cache::unseal_facts("", layer_a, cache::seal_facts("", layer_a, some_facts())).facts);
    }
}
