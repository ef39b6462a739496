// The layer fact cache in the real scan: an analysis with the cache, cold or
// warm, equals the analysis without it; an image sharing layers with one seen
// before reads only its new layers; damaged entries are rebuilt; unverified
// reads are never cached. And end to end through the CLI: validate's report
// is the same with and without the cache.
#include <catch2/catch.hpp>
#include <filesystem>

#include "cache/cache_test_support.hpp"
#include "cuvet/cache/store.hpp"
#include "cuvet/inventory/analysis.hpp"
#include "support/elf_fixtures.hpp"
#include "support/image_writer.hpp"
#include "support/process.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"

using namespace cuvet;
using namespace cuvet::test;
namespace fs = std::filesystem;

namespace {

// Three layers with everything the scan collects: ELF libraries and programs,
// a selected file that is not ELF, text files, links, a whiteout, an opaque dir.
ImageSpec three_layers(const std::string& top_note) {
    const auto& elf = elf_fixtures();
    REQUIRE(elf.error.empty());
    ImageSpec spec;
    Layer base;
    base.entries = {
        dir("usr/"),
        dir("usr/lib/"),
        file("usr/lib/libbase.so.1", read_file(elf.base), 0755),
        soft_link("usr/lib/libbase.so", "libbase.so.1"),
        soft_link("lib", "usr/lib"),
        file("etc/os-release", "ID=debian\nVERSION_ID=\"12\"\n"),
        file("etc/old.conf", "gone later"),
        file("var/lib/dpkg/status",
             "Package: libcudnn8\nStatus: install ok installed\nVersion: 8.6.0.163-1+cuda11.8\n\n"),
        file("opt/conda/keep.txt", "hidden by an opaque dir")};
    Layer mid;
    mid.entries = {file("usr/lib/libuser.so", read_file(elf.user), 0755),
                   file("usr/bin/prog", read_file(elf.exe), 0755),
                   file("usr/lib/libfake.so.1", std::string(200, 'x')),
                   whiteout("etc/old.conf"),
                   file("opt/tool", read_file(elf.exe), 0644),
                   hard_link("usr/lib/libuser-copy.so", "usr/lib/libuser.so")};
    Layer top;
    top.entries = {file("lib/librun.so", read_file(elf.runpath), 0755), opaque("opt/conda"),
                   file("opt/conda/lib/python3.11/site-packages/torch/version.py",
                        "__version__ = '2.1.0'\ncuda = '" + top_note + "'\n")};
    spec.layers = {base, mid, top};
    spec.env.push_back("LD_LIBRARY_PATH=/usr/lib");
    return spec;
}

fs::path write_image(const TempDir& dir, const std::string& name, const ImageSpec& spec) {
    fs::path path = dir / name;
    oci_layout({oci_image(spec)}).write_dir(path);
    return path;
}
}  // namespace

TEST_CASE("layer cache: cold and warm analyses equal the analysis without cache", "[cache]") {
    TempDir dir;
    fs::path image = write_image(dir, "a", three_layers("11.8"));
    cache::Store store(dir / "cache");
    Run plain = analyze(image, nullptr);
    REQUIRE(plain.analysis.elfs.count("/usr/lib/libuser.so") == 1);
    REQUIRE(plain.analysis.not_elf.count("/usr/lib/libfake.so.1") == 1);
    REQUIRE(plain.analysis.texts.count("/var/lib/dpkg/status") == 1);
    REQUIRE(plain.analysis.tree.find("/etc/old.conf") == nullptr);
    REQUIRE(plain.analysis.tree.find("/opt/conda/keep.txt") == nullptr);
    // Under the base layer's lib -> usr/lib: overlay makes /lib a directory of the top layer.
    REQUIRE(plain.analysis.tree.find("/lib/librun.so") != nullptr);

    Run cold = analyze(image, &store);
    CHECK(cold.stats.misses == 3);
    CHECK(cold.stats.written == 3);
    CHECK(cold.fingerprint == plain.fingerprint);
    CHECK(cold.analysis.elfs == plain.analysis.elfs);

    Run warm = analyze(image, &store);
    CHECK(warm.stats.hits == 3);
    CHECK(warm.stats.written == 0);
    CHECK(warm.fingerprint == plain.fingerprint);
    CHECK(warm.analysis.elfs == plain.analysis.elfs);
}

TEST_CASE("layer cache: an image sharing two of three layers reads only the new one", "[cache]") {
    TempDir dir;
    cache::Store store(dir / "cache");
    analyze(write_image(dir, "a", three_layers("11.8")), &store);
    fs::path b = write_image(dir, "b", three_layers("12.1"));
    Run shared = analyze(b, &store);
    CHECK(shared.stats.hits == 2);
    CHECK(shared.stats.misses == 1);
    CHECK(shared.fingerprint == analyze(b, nullptr).fingerprint);
    CHECK(shared.fingerprint.find("12.1") != std::string::npos);
}

TEST_CASE("layer cache: damaged entries are rebuilt, never trusted", "[cache]") {
    TempDir dir;
    fs::path image = write_image(dir, "a", three_layers("11.8"));
    cache::Store store(dir / "cache");
    const std::string expected = analyze(image, nullptr).fingerprint;
    analyze(image, &store);
    std::vector<fs::path> entries;
    for (const auto& e : fs::directory_iterator(dir / "cache" / "layers"))
        entries.push_back(e.path());
    REQUIRE(entries.size() == 3);
    // One flipped, one truncated, one emptied.
    std::string bytes = read_file(entries[0]);
    bytes[bytes.size() / 2] = char(bytes[bytes.size() / 2] ^ 1);
    write_file(entries[0], bytes);
    write_file(entries[1], read_file(entries[1]).substr(0, 100));
    write_file(entries[2], "");

    Run damaged = analyze(image, &store);
    CHECK(damaged.stats.rejected == 3);
    CHECK(damaged.stats.hits == 0);
    CHECK(damaged.stats.written == 3);
    CHECK(damaged.fingerprint == expected);
    Run rebuilt = analyze(image, &store);
    CHECK(rebuilt.stats.hits == 3);
    CHECK(rebuilt.fingerprint == expected);
}

TEST_CASE("layer cache: unverified reads are neither cached nor served", "[cache]") {
    TempDir dir;
    fs::path image = write_image(dir, "a", three_layers("11.8"));
    cache::Store store(dir / "cache");
    Run unverified = analyze(image, &store, {}, false);
    CHECK(unverified.stats.written == 0);
    analyze(image, &store);
    Run again = analyze(image, &store, {}, false);
    CHECK(again.stats.hits == 0);
    CHECK(again.fingerprint == analyze(image, nullptr).fingerprint);
}

TEST_CASE("layer cache: a file selected beyond the default (ldd's program) is read, not recalled",
          "[cache]") {
    TempDir dir;
    fs::path image = write_image(dir, "a", three_layers("11.8"));
    cache::Store store(dir / "cache");
    analyze(image, &store);
    Run with_extra = analyze(image, &store, {"/opt/tool"});
    // Only read bytes can give its facts: the layer holding it was read, not recalled.
    CHECK(with_extra.analysis.elfs.count("/opt/tool") == 1);
    CHECK(with_extra.stats.written == 0);
    CHECK(with_extra.fingerprint == analyze(image, nullptr, {"/opt/tool"}).fingerprint);
    CHECK(analyze(image, &store).analysis.elfs.count("/opt/tool") == 0);
}

TEST_CASE("layer cache: validate reports the same with and without the cache (CLI)",
          "[cache][cli]") {
    fs::path sample = fs::path(CUVET_BUILD_DIR) / "testdata" / "sample-image.tar";
    if (!fs::exists(sample)) {
        CUVET_SKIP("skipped: " << sample << " not built (target sample_image)");
    }
    TempDir home;
    auto cuvet = [&](const std::string& args) {
        return run_shell("XDG_CACHE_HOME=" + shell_quote(home.path().string()) + " " +
                         shell_quote(CUVET_BINARY_PATH) + " " + args);
    };
    const std::string validate = "validate --format json " + shell_quote(sample.string());
    auto plain = cuvet(validate + " --no-cache");
    REQUIRE((plain.exit_code == 0 || plain.exit_code == 1));
    REQUIRE_FALSE(fs::exists(home / "cuvet"));
    auto cold = cuvet(validate);
    auto warm = cuvet(validate);
    CHECK(cold.exit_code == plain.exit_code);
    CHECK(warm.exit_code == plain.exit_code);
    CHECK(cold.out == plain.out);
    CHECK(warm.out == plain.out);

    auto listed = nlohmann::json::parse(cuvet("cache ls --format json").out);
    const auto layers = listed["entries"].size();
    CHECK(layers >= 2);
    for (const auto& e : listed["entries"]) CHECK(e["usable"] == true);
    for (const auto& e : fs::directory_iterator(home / "cuvet" / "layers")) {
        std::string bytes = read_file(e.path());
        bytes[bytes.size() / 3] = char(bytes[bytes.size() / 3] ^ 0x55);
        write_file(e.path(), bytes);
    }
    auto damaged = cuvet(validate);
    CHECK(damaged.exit_code == plain.exit_code);
    CHECK(damaged.out == plain.out);
    listed = nlohmann::json::parse(cuvet("cache ls --format json").out);
    CHECK(listed["entries"].size() == layers);
    for (const auto& e : listed["entries"]) CHECK(e["usable"] == true);

    auto pruned = cuvet("cache prune --all");
    CHECK(pruned.exit_code == 0);
    CHECK(nlohmann::json::parse(cuvet("cache ls --format json").out)["entries"].empty());
    CHECK(cuvet("cache prune --max-size lots").exit_code == 2);
}
