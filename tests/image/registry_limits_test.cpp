// A registry cannot hold cuvet hostage or collect credentials meant for
// another host: a per-request deadline (--timeout) and a token realm on a
// different host getting no password without --cross-host-auth.
#include <chrono>

#include "image/registry/token_realm.hpp"
#include "image/registry_fixtures.hpp"

using namespace cuvet::test;

TEST_CASE("a registry that trickles a manifest is cut off at --timeout",
          "[image][registry][timeout]") {
    const std::string manifest = std::string(2000, ' ') + "{}";
    HttpTestServer slow([&](const HttpRequestHead& request) {
        HttpAction action;
        if (request.target == "/v2/") {
            action.response = http_response(200, "{}");
        } else {
            // Headers at once, then the body at 5 bytes a second: never
            // stalled long enough for a low-speed limit, never finished.
            action.response = http_response(
                200, manifest, {"Content-Type: application/vnd.oci.image.manifest.v1+json"});
            action.trickle_after = action.response->size() - manifest.size() + 1;
            action.trickle_every = std::chrono::milliseconds(200);
        }
        return action;
    });
    const std::string url = "docker://127.0.0.1:" + std::to_string(slow.port()) + "/cuvet/slow:1";
    const auto start = std::chrono::steady_clock::now();
    auto result = run_cuvet({"files", "--insecure", "--timeout", "2", url});
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    INFO(result.err);
    require_bad_input(result, "no complete response within 2 s (--timeout)");
    CHECK(result.err.find("/manifests/1") != std::string::npos);
    CHECK(seconds < 20);  // generous: the point is that it ends, not how fast
}

TEST_CASE("a silent registry fails at --stall-timeout, without retries",
          "[image][registry][timeout]") {
    // Every answer comes at 2 bytes a second: not one request completes.
    HttpTestServer silent([&](const HttpRequestHead&) {
        HttpAction action;
        action.response = http_response(200, "{}");
        action.trickle_after = 0;
        action.trickle_every = std::chrono::milliseconds(500);
        return action;
    });
    const std::string url =
        "docker://127.0.0.1:" + std::to_string(silent.port()) + "/cuvet/silent:1";
    const auto start = std::chrono::steady_clock::now();
    // The default --timeout (900 s) stays: the stall window ends it.
    auto result = run_cuvet({"files", "--insecure", "--stall-timeout", "2", url});
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    INFO(result.err);
    require_bad_input(result, "127.0.0.1");
    // One stall, not five attempts of one (10 s and more).
    CHECK(seconds < 7);
}

TEST_CASE("which token realms may receive registry credentials", "[image][registry][auth]") {
    using cuvet::image::credentials_withheld;
    CHECK(credentials_withheld("https://reg.example.com/token", "reg.example.com", false, false)
              .empty());
    CHECK(credentials_withheld("https://reg.example.com:5001/token", "reg.example.com:5000", false,
                               false)
              .empty());
    CHECK(credentials_withheld("https://auth.docker.io/token", "registry-1.docker.io", false, false)
              .empty());
    CHECK(credentials_withheld("https://authn.nvidia.com/token", "nvcr.io", false, false).empty());
    const std::string other =
        credentials_withheld("https://evil.example.net/token", "reg.example.com", false, false);
    CHECK(other.find("evil.example.net") != std::string::npos);
    CHECK(other.find("--cross-host-auth") != std::string::npos);
    CHECK(credentials_withheld("https://evil.example.net/token", "reg.example.com", false, true)
              .empty());
    // A user@host realm is judged by its host.
    CHECK(!credentials_withheld("https://reg.example.com@evil.example.net/t", "reg.example.com",
                                false, false)
               .empty());
    // Plain HTTP carries a password only with --insecure.
    CHECK(!credentials_withheld("http://reg.example.com/token", "reg.example.com", false, false)
               .empty());
    CHECK(credentials_withheld("http://reg.example.com/token", "reg.example.com", true, false)
              .empty());
}

TEST_CASE("a token realm on another host gets no password unless --cross-host-auth",
          "[integration][image][registry][auth]") {
    REQUIRE_REGISTRY_TOOLS();
    // The registry is 127.0.0.1; its challenge sends clients to "localhost".
    RegistryServer registry({.user = "alice",
                             .password = "s3cret pass",
                             .token_auth = true,
                             .token_realm_host = "localhost"});
    TempDir tmp;
    auto layout = push_image(registry, tmp, two_layer_spec(), "cuvet/test:cross");
    const std::string expected = run_cuvet({"files", layout.string()}).out;
    const std::string url = registry.url("cuvet/test:cross");
    const std::vector<std::string> env = {
        "DOCKER_CONFIG=" + (tmp / "none").string(),
        "REGISTRY_AUTH_FILE=" + (tmp / "none/auth.json").string()};
    const int before = registry.token_requests_with_credentials();

    auto withheld =
        run_cuvet_with(env, {"files", "--insecure", "--username", "alice", "--password-stdin", url},
                       "s3cret pass");
    require_bad_input(withheld, "--cross-host-auth");
    CHECK(withheld.err.find("localhost") != std::string::npos);
    CHECK(registry.token_requests_with_credentials() == before);

    auto allowed = run_cuvet_with(env,
                                  {"files", "--insecure", "--cross-host-auth", "--username",
                                   "alice", "--password-stdin", url},
                                  "s3cret pass");
    INFO(allowed.err);
    CHECK(allowed.exit_code == 0);
    CHECK(allowed.out == expected);
    CHECK(registry.token_requests_with_credentials() > before);
}
