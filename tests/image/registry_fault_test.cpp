// What a network and a registry do wrong: a connection cut mid-layer, the
// registry dying mid-layer, a truncated or altered blob in its storage, 429s.
// Each ends in a successful retry or one clear error (exit 3) — never in a
// verdict from bytes that were not the image's.
#include <atomic>

#include "image/registry_fixtures.hpp"

using namespace cuvet::test;

namespace {

// A 6 MB layer of incompressible bytes (so a cut lands mid-layer) under a
// small second one. Gzip, because skopeo compresses uncompressed layers on
// the way to a registry, which would change the digests.
ImageSpec big_layer_spec() {
    ImageSpec spec =
        layered_spec({{dir("data/"), file("data/blob.bin", pseudo_random_bytes(6u << 20, 7))},
                      {file("etc/hostname", "box\n")}},
                     Compression::gzip);
    return spec;
}

std::string big_layer_digest() { return encode_image(big_layer_spec()).layers[0].digest; }

bool is_blob_request(const HttpRequestHead& request, const std::string& digest) {
    return request.method == "GET" && request.target.find("/blobs/" + digest) != std::string::npos;
}

struct Pushed {
    RegistryServer registry;
    TempDir tmp;
    std::filesystem::path layout;
    std::string expected;  // `cuvet files` of the layout
    Pushed() {
        layout = push_image(registry, tmp, big_layer_spec(), "cuvet/test:big");
        expected = run_cuvet({"files", layout.string()}).out;
    }
    std::string url_through(const HttpTestServer& proxy) const {
        return "docker://127.0.0.1:" + std::to_string(proxy.port()) + "/cuvet/test:big";
    }
};

}  // namespace

TEST_CASE("a connection cut mid-layer is resumed and the image read whole",
          "[image][registry][fault]") {
    REQUIRE_REGISTRY_TOOLS();
    Pushed pushed;
    const std::string digest = big_layer_digest();
    std::atomic<int> cuts{0};
    HttpTestServer proxy(
        [&](const HttpRequestHead& request) {
            HttpAction action;
            if (is_blob_request(request, digest) && cuts++ == 0) action.cut_after = 2u << 20;
            return action;
        },
        pushed.registry.port());
    auto result = run_cuvet({"files", "--insecure", pushed.url_through(proxy)});
    INFO("cuvet: " << result.err);
    CHECK(result.exit_code == 0);
    CHECK(cuts >= 2);
    CHECK(result.out == pushed.expected);
}

TEST_CASE("the registry dying mid-layer is one clear error", "[image][registry][fault]") {
    REQUIRE_REGISTRY_TOOLS();
    Pushed pushed;
    const std::string digest = big_layer_digest();
    HttpTestServer proxy(
        [&](const HttpRequestHead& request) {
            HttpAction action;
            if (is_blob_request(request, digest)) {
                action.cut_after = 2u << 20;
                action.before_cut = [&] { pushed.registry.kill(); };
            }
            return action;
        },
        pushed.registry.port());
    auto result = run_cuvet({"validate", "--insecure", pushed.url_through(proxy)});
    require_bad_input(result, "cuvet/test:big");
    // Layers are fetched in parallel: the small one may be the first to find the registry gone.
    const std::string small = encode_image(big_layer_spec()).layers[1].digest;
    INFO("cuvet: " << result.err);
    CHECK((result.err.find(digest) != std::string::npos ||
           result.err.find(small) != std::string::npos));
}

TEST_CASE("a truncated blob in the registry is refused", "[image][registry][fault]") {
    REQUIRE_REGISTRY_TOOLS();
    Pushed pushed;
    const std::string digest = big_layer_digest();
    std::filesystem::resize_file(pushed.registry.blob_data(digest), 3u << 20);
    auto result = run_cuvet({"files", "--insecure", pushed.registry.url("cuvet/test:big")});
    require_bad_input(result, digest);
}

TEST_CASE("a blob whose bytes do not match its digest is refused", "[image][registry][fault]") {
    REQUIRE_REGISTRY_TOOLS();
    Pushed pushed;
    const std::string digest = big_layer_digest();
    auto data = pushed.registry.blob_data(digest);
    std::string bytes = read_file(data);
    // Inside a stored deflate block of blob.bin's bytes: the inflater may take
    // it, the digest (or gzip's CRC, whichever is read first) must not.
    bytes[bytes.size() / 2] ^= 0x01;
    write_file(data, bytes);
    auto result = run_cuvet({"validate", "--insecure", pushed.registry.url("cuvet/test:big")});
    require_bad_input(result, digest);
    CHECK((result.err.find("digest mismatch") != std::string::npos ||
           result.err.find("CRC") != std::string::npos ||
           result.err.find("corrupt") != std::string::npos));
}

TEST_CASE("429 is retried with backoff, a registry that never relents is one clear error",
          "[image][registry][fault]") {
    REQUIRE_REGISTRY_TOOLS();
    Pushed pushed;
    const std::string digest = big_layer_digest();
    std::atomic<int> refused{0};
    std::atomic<int> limit{2};
    HttpTestServer proxy(
        [&](const HttpRequestHead& request) {
            HttpAction action;
            if (is_blob_request(request, digest) && refused < limit) {
                ++refused;
                action.response = http_response(
                    429, R"({"errors":[{"code":"TOOMANYREQUESTS","message":"slow down"}]})");
            }
            return action;
        },
        pushed.registry.port());
    auto retried = run_cuvet({"files", "--insecure", pushed.url_through(proxy)});
    INFO("cuvet: " << retried.err);
    CHECK(retried.exit_code == 0);
    CHECK(refused == 2);
    CHECK(retried.out == pushed.expected);

    refused = 0;
    limit = 1000;
    auto gave_up = run_cuvet({"files", "--insecure", pushed.url_through(proxy)});
    require_bad_input(gave_up, "HTTP 429");
    CHECK(gave_up.err.find(digest) != std::string::npos);
}

TEST_CASE("validate --probe fetches a registry image's layers once, and keeps none of them",
          "[integration][image][registry][probe]") {
    REQUIRE_REGISTRY_TOOLS();
    Pushed pushed;
    const std::string digest = big_layer_digest();
    std::atomic<int> fetches{0};
    HttpTestServer proxy(
        [&](const HttpRequestHead& request) {
            if (is_blob_request(request, digest)) ++fetches;
            return HttpAction{};
        },
        pushed.registry.port());
    const auto temp = pushed.tmp / "temp";
    std::filesystem::create_directories(temp);
    // No engine on PATH: the live check stops when it starts one, after the scans it plans with
    // (the static scan's, then its own).
    auto result = run_cuvet_with(
        {"PATH=/nonexistent", "TMPDIR=" + temp.string()},
        {"validate", "--insecure", "--no-cache", "--format", "json", "--probe", "--probe-runtime",
         "podman", "--container-image", "localhost/none", pushed.url_through(proxy)});
    INFO("cuvet: " << result.err);
    CHECK(result.exit_code != 3);
    CHECK_THAT(result.out, Catch::Contains("\"findings\""));
    // It got as far as starting the engine, past the scan the live check plans with.
    CHECK_THAT(result.out, Catch::Contains("CUVG07") && Catch::Contains("cannot run podman"));
    CHECK(fetches == 1);
    CHECK(std::filesystem::is_empty(temp));  // the kept blobs went with the image
}
