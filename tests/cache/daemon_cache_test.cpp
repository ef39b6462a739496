// The layer fact cache on the streamed sources (issue 26): an image from the
// daemon (podman's Docker API socket) or from containers-storage (skopeo)
// fills the cache cold, and warm takes every layer from it, without asking
// for the export at all; an image sharing one layer reads only the other.
// Each analysis equals the one without the cache.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "cache/cache_test_support.hpp"
#include "cuvet/cache/store.hpp"
#include "cuvet/inventory/analysis.hpp"
#include "image/image_fixtures.hpp"
#include "support/elf_fixtures.hpp"
#include "support/podman_service.hpp"
#include "support/skip.hpp"

using namespace cuvet;
using namespace cuvet::test;
namespace fs = std::filesystem;

namespace {

// two_layer_spec with real ELF libraries in both layers; `top_note` makes the top layer another
// blob.
ImageSpec elf_image(const std::string& top_note) {
    const auto& elf = elf_fixtures();
    REQUIRE(elf.error.empty());
    ImageSpec spec = two_layer_spec();
    spec.layers[0].entries.push_back(file("usr/lib/libbase.so.1", read_file(elf.base), 0755));
    spec.layers[1].entries.push_back(dir("usr/"));
    spec.layers[1].entries.push_back(dir("usr/lib/"));
    spec.layers[1].entries.push_back(file("usr/lib/libuser.so", read_file(elf.user), 0755));
    spec.layers[1].entries.push_back(file("opt/note-" + top_note + ".txt", top_note));
    return spec;
}

// Sets an environment variable for the life of the object.
class ScopedEnv {
public:
    ScopedEnv(const char* name, const std::string& value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old;
        setenv(name, value.c_str(), 1);
    }
    ~ScopedEnv() { old_ ? setenv(name_, old_->c_str(), 1) : unsetenv(name_); }

private:
    const char* name_;
    std::optional<std::string> old_;
};

int lines_with(const fs::path& log, const std::string& word) {
    if (!fs::exists(log)) return 0;
    int n = 0;
    std::istringstream in(read_file(log));
    for (std::string line; std::getline(in, line);) n += line.rfind(word, 0) == 0;
    return n;
}

}  // namespace

TEST_CASE("layer cache: docker-daemon: and containers-storage: consult and fill it",
          "[integration][cache][daemon]") {
    if (!PodmanService::available()) {
        CUVET_SKIP("podman or skopeo is not installed");
    }
    PodmanService podman;
    TempDir tmp;
    for (const char* name : {"a", "b"}) {
        oci_layout({oci_image(elf_image(name), "t")}).write_dir(tmp / name);
        auto loaded = podman.load("oci:" + (tmp / name).string() + ":t",
                                  std::string("localhost/cuvet/") + name + ":1");
        INFO("skopeo: " << loaded.err);
        REQUIRE(loaded.exit_code == 0);
    }
    ScopedEnv host("DOCKER_HOST", podman.docker_host());
    // skopeo as itself, each call logged: the export is `skopeo copy`.
    const fs::path log = tmp / "skopeo.log";
    fs::create_directories(tmp / "bin");
    std::string skopeo = run_shell("command -v skopeo").out;
    skopeo = skopeo.substr(0, skopeo.find('\n'));
    write_file(tmp / "bin" / "skopeo",
               "#!/bin/sh\necho \"$1\" >> '" + log.string() + "'\nexec " + skopeo + " \"$@\"\n");
    fs::permissions(tmp / "bin" / "skopeo", fs::perms::owner_all);
    ScopedEnv path("PATH", (tmp / "bin").string() + ":" + std::getenv("PATH"));

    for (const std::string kind : {"docker-daemon:", "containers-storage:"}) {
        INFO(kind);
        auto source = [&](const std::string& name) {
            const std::string reference = "localhost/cuvet/" + name + ":1";
            return kind == "docker-daemon:" ? kind + reference : podman.storage(reference);
        };
        cache::Store store(tmp / ("cache-" + kind.substr(0, 6)));
        REQUIRE(store.refused().empty());
        const Run plain = analyze(source("a"), nullptr);
        REQUIRE(plain.fingerprint.find("elf /usr/lib/libuser.so") != std::string::npos);

        const Run cold = analyze(source("a"), &store);
        CHECK(cold.stats.misses == 2);
        CHECK(cold.stats.written == 2);
        CHECK(cold.fingerprint == plain.fingerprint);

        fs::remove(log);
        const Run warm = analyze(source("a"), &store);
        CHECK(warm.stats.hits == 2);
        CHECK(warm.stats.misses == 0);
        CHECK(warm.stats.written == 0);
        CHECK(warm.fingerprint == plain.fingerprint);
        if (kind == "containers-storage:") {
            CHECK(lines_with(log, "inspect") == 1);  // the config
            CHECK(lines_with(log, "copy") == 0);     // no export
        }

        const Run shared = analyze(source("b"), &store);
        CHECK(shared.stats.hits == 1);
        CHECK(shared.stats.misses == 1);
        CHECK(shared.stats.written == 1);
        CHECK(shared.fingerprint == analyze(source("b"), nullptr).fingerprint);
        CHECK(shared.fingerprint != plain.fingerprint);
    }
}

TEST_CASE("layer cache: validate from the daemon reports the same cold, warm and uncached",
          "[integration][cache][daemon][cli]") {
    if (!PodmanService::available()) {
        CUVET_SKIP("podman or skopeo is not installed");
    }
    const fs::path sample = fs::path(CUVET_BUILD_DIR) / "testdata/sample-image.tar";
    if (!fs::exists(sample)) {
        CUVET_SKIP("the sample image is not built");
    }
    PodmanService podman;
    auto loaded = podman.load("docker-archive:" + sample.string(), "localhost/cuvet/sample:1");
    INFO("skopeo: " << loaded.err);
    REQUIRE(loaded.exit_code == 0);
    TempDir home;
    auto validate = [&](const std::string& extra) {
        return run_shell("env DOCKER_HOST=" + shell_quote(podman.docker_host()) +
                         " XDG_CACHE_HOME=" + shell_quote(home.path().string()) + " " +
                         shell_quote(CUVET_BINARY_PATH) +
                         " validate --format json docker-daemon:localhost/cuvet/sample:1" + extra);
    };
    auto plain = validate(" --no-cache");
    REQUIRE((plain.exit_code == 0 || plain.exit_code == 1));
    auto cold = validate("");
    const auto entries =
        std::distance(fs::directory_iterator(home / "cuvet" / "layers"), fs::directory_iterator());
    CHECK(entries >= 2);
    auto warm = validate("");
    CHECK(cold.out == plain.out);
    CHECK(warm.out == plain.out);
    CHECK(warm.exit_code == plain.exit_code);
    // The warm run wrote nothing new: every layer came from the cache.
    CHECK(std::distance(fs::directory_iterator(home / "cuvet" / "layers"),
                        fs::directory_iterator()) == entries);
}
