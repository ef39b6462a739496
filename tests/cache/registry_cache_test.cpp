// A registry image validated a second time: the layers the cache knows are
// not even downloaded (only the manifest and config are asked for), and the
// findings are the same. Counted at a proxy in front of a real docker-registry.
#include <atomic>

#include "image/registry_fixtures.hpp"
#include "support/sample_image.hpp"
#include "support/skip.hpp"

using namespace cuvet::test;

TEST_CASE("layer cache: a registry image validated again downloads no cached layer",
          "[integration][cache][registry]") {
    REQUIRE_REGISTRY_TOOLS();
    const auto sample = built_sample_image();
    if (sample.empty()) {
        CUVET_SKIP("skipped: the sample image is not built");
    }
    RegistryServer registry;
    auto pushed = registry.push("docker-archive:" + sample.string(), "cuvet/cached:1");
    INFO("skopeo: " << pushed.err);
    REQUIRE(pushed.exit_code == 0);

    std::atomic<int> blob_gets{0};
    HttpTestServer proxy(
        [&](const HttpRequestHead& request) {
            if (request.method == "GET" && request.target.find("/blobs/") != std::string::npos)
                ++blob_gets;
            return HttpAction{};
        },
        registry.port());
    const std::string url =
        "docker://127.0.0.1:" + std::to_string(proxy.port()) + "/cuvet/cached:1";
    TempDir cache_home;
    const std::vector<std::string> env = {"XDG_CACHE_HOME=" + cache_home.path().string()};
    auto validate = [&](std::vector<std::string> extra) {
        std::vector<std::string> args = {"validate", "--insecure", "--format", "json"};
        args.insert(args.end(), extra.begin(), extra.end());
        args.push_back(url);
        blob_gets = 0;
        auto result = run_cuvet_with(env, args);
        INFO("cuvet: " << result.err);
        REQUIRE(findings_of(result).is_array());
        return std::make_pair(result, blob_gets.load());
    };

    auto [uncached, uncached_gets] = validate({"--no-cache"});
    auto [cold, cold_gets] = validate({});
    auto [warm, warm_gets] = validate({});
    // The config, then every layer; warm: the config alone.
    CHECK(uncached_gets >= 2);
    CHECK(cold_gets == uncached_gets);
    CHECK(warm_gets == 1);
    CHECK(findings_of(warm) == findings_of(uncached));
    CHECK(warm.exit_code == uncached.exit_code);
    CHECK(findings_of(cold) == findings_of(uncached));
}
