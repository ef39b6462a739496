// The fleet's fact store in a real docker-registry: a worker takes a shared base's facts from
// it instead of reading the base; an entry sealed with another key (forged by someone who can
// push but lacks the fleet's secret) or replayed under another layer's tag is refused with one
// line, the layer read, and the verdict the same.
#include "cuvet/fleet/fact_store.hpp"

#include <catch2/catch.hpp>
#include <filesystem>

#include "fleet/fleet_fixtures.hpp"
#include "image/registry_fixtures.hpp"

using namespace cuvet;
using namespace cuvet::test;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string store_key = "fleet-secret-0123456789abcdef";

struct StoreRun {
    ProcessResult process;
    json result;  // the one image's result
};

// One worker, a fresh local cache, one image, the shared store at `store`.
StoreRun scan_one(const TempDir& tmp, const std::string& name, const std::string& reference,
                  const std::string& store, const std::string& key) {
    write_file(tmp / (name + ".txt"), reference + "\n");
    StoreRun run;
    run.process = run_cuvet_with(
        {"XDG_CACHE_HOME=" + (tmp / name / "cache").string(), "CUVET_FACT_STORE_KEY=" + key},
        {"fleet", "scan", "--insecure", "--list", (tmp / (name + ".txt")).string(), "--out",
         (tmp / name / "out").string(), "--fact-store", store, "--fact-wait", "0"});
    const auto results = results_in(tmp / name / "out");
    if (results.size() == 1) run.result = results.front();
    return run;
}

bool read_layer(const StoreRun& run, const std::string& diff_id) {
    for (const auto& read : run.result.value("layers_read", json::array()))
        if (read == diff_id) return true;
    return false;
}

// Points the registry's tag `to` at the manifest tag `from` names, in its storage: what anyone
// with write access to the registry (or its bucket) can do to replay an authentic entry.
void retag_in_storage(const RegistryServer& registry, const std::string& repository,
                      const std::string& from, const std::string& to) {
    // blob_data(): <root>/docker/registry/v2/blobs/sha256/xx/<hex>/data
    const fs::path root = registry.blob_data("sha256:" + std::string(64, '0'))
                              .parent_path()
                              .parent_path()
                              .parent_path()
                              .parent_path()
                              .parent_path();
    const fs::path tags = root / "repositories" / repository / "_manifests" / "tags";
    REQUIRE(fs::exists(tags / from / "current" / "link"));
    fs::create_directories(tags / to / "current");
    write_file(tags / to / "current" / "link", read_file(tags / from / "current" / "link"));
}

}  // namespace

TEST_CASE("fact store: a shared base is taken from the store, forged and replayed entries refused",
          "[fleet][integration]") {
    REQUIRE_REGISTRY_TOOLS();
    RegistryServer registry;
    TempDir tmp;
    const Layer base = cuda_base("12.4.1");
    std::vector<EncodedImage> images;
    for (int i = 0; i < 3; ++i) {
        ImageSpec spec;
        Layer own;
        own.entries = {dir("app/"), file("app/id", std::to_string(i) + "\n")};
        spec.layers = {base, own};
        images.push_back(encode_image(spec));
        push_encoded(registry.host(), "team/app" + std::to_string(i) + ":1", images.back());
    }
    const std::string base_id = images[0].diff_ids[0];
    const std::string app0_id = images[0].diff_ids[1];
    const std::string store = registry.host() + "/cuvet/facts";
    const std::string app0 = registry.url("team/app0:1"), app1 = registry.url("team/app1:1");

    // Someone who can push to the registry but lacks the fleet's key seals the base first.
    auto forger =
        scan_one(tmp, "forger", registry.url("team/app2:1"), store, "not-the-fleet-key-0123456789");
    INFO(forger.process.err);
    REQUIRE(forger.process.exit_code == 0);
    REQUIRE(read_layer(forger, base_id));

    // The fleet's worker refuses the forged base, reads it, and replaces the entry.
    auto first = scan_one(tmp, "first", app1, store, store_key);
    INFO(first.process.err);
    REQUIRE(first.process.exit_code == 0);
    CHECK(first.process.err.find("fact store entry docker://" + store + ":" +
                                 fleet::RegistryFactStore::tag_of(base_id) +
                                 " refused (not sealed with this fleet's key); the layer is read "
                                 "instead") != std::string::npos);
    CHECK(read_layer(first, base_id));
    const std::string verdict = first.result["verdict"];

    // The next worker takes the base from the store: only its own layer is read.
    auto second = scan_one(tmp, "second", app0, store, store_key);
    INFO(second.process.err);
    REQUIRE(second.process.exit_code == 0);
    CHECK(second.process.err.find("refused (") == std::string::npos);
    CHECK(second.result["layers_read"] == json::array({app0_id}));
    CHECK(second.result["verdict"] == verdict);
    CHECK(second.process.err.find("fact store: 1 layers taken, 1 shared") != std::string::npos);

    // The base's tag now names app0's entry: authentic, sealed with the fleet's key, for
    // another layer. Refused, and the base is read again.
    retag_in_storage(registry, "cuvet/facts", fleet::RegistryFactStore::tag_of(app0_id),
                     fleet::RegistryFactStore::tag_of(base_id));
    auto replayed = scan_one(tmp, "replayed", app1, store, store_key);
    INFO(replayed.process.err);
    REQUIRE(replayed.process.exit_code == 0);
    CHECK(replayed.process.err.find("refused (sealed for layer " + app0_id + ")") !=
          std::string::npos);
    CHECK(read_layer(replayed, base_id));
    CHECK(replayed.result["verdict"] == verdict);
    CHECK(replayed.result["report"]["findings"] == first.result["report"]["findings"]);
}

TEST_CASE("fact store: no key, a short key, or a tag is a usage error", "[fleet]") {
    TempDir tmp;
    write_file(tmp / "list.txt", "docker://127.0.0.1:9/a:1\n");
    auto scan = [&](const std::vector<std::string>& env, std::vector<std::string> extra) {
        std::vector<std::string> args = {"fleet",  "scan",
                                         "--list", (tmp / "list.txt").string(),
                                         "--out",  (tmp / "out").string()};
        args.insert(args.end(), extra.begin(), extra.end());
        return run_cuvet_with(env, args);
    };
    auto no_key = scan({}, {"--fact-store", "127.0.0.1:9/facts"});
    CHECK(no_key.exit_code == 2);
    CHECK(no_key.err.find("--fact-store needs the fleet's key") != std::string::npos);
    auto short_key = scan({"CUVET_FACT_STORE_KEY=short"}, {"--fact-store", "127.0.0.1:9/facts"});
    CHECK(short_key.exit_code == 2);
    CHECK(short_key.err.find("at least 16 bytes") != std::string::npos);
    auto tagged = scan({"CUVET_FACT_STORE_KEY=" + store_key}, {"--fact-store", "127.0.0.1:9/f:v1"});
    CHECK(tagged.exit_code == 2);
    CHECK(tagged.err.find("a repository (HOST/REPO), not a tag") != std::string::npos);
    auto key_alone = scan({}, {"--fact-store-key-file", (tmp / "list.txt").string()});
    CHECK(key_alone.exit_code == 2);
    CHECK(!fs::exists(tmp / "out"));
}
